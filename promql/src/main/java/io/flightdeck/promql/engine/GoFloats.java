package io.flightdeck.promql.engine;

import com.google.re2j.Pattern;

/**
 * Go's {@code strconv.ParseFloat} for label values such as {@code le="0.5"}: decimal and hex
 * notation, {@code Inf}/{@code Infinity}/{@code NaN} in any case with an optional sign; nothing
 * else (no spaces, no Java suffixes like {@code 1d}). Checked with re2j: label values are user
 * input, and its matching time is linear in their length.
 */
final class GoFloats {
  private static final Pattern DECIMAL =
      Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
  private static final Pattern HEX =
      Pattern.compile("[+-]?0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)[pP][+-]?\\d+");
  private static final Pattern SPECIAL = Pattern.compile("(?i)[+-]?(inf|infinity)|nan");

  private GoFloats() {}

  static double parse(String s) {
    if (DECIMAL.matcher(s).matches() || HEX.matcher(s).matches()) {
      return Double.parseDouble(s);
    }
    if (SPECIAL.matcher(s).matches()) {
      String lower = s.toLowerCase(java.util.Locale.ROOT);
      if (lower.equals("nan")) {
        return Double.NaN;
      }
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    throw new NumberFormatException("invalid float: " + s);
  }
}
