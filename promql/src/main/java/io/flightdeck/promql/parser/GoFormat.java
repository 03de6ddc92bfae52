package io.flightdeck.promql.parser;

import java.math.BigDecimal;

/**
 * Go's formatting verbs that Prometheus's messages use, for the engine's messages to read exactly
 * the same: {@code %q} on strings, {@code strconv.FormatFloat(v, 'f', -1, 64)} and {@code %g}.
 */
public final class GoFormat {
  private GoFormat() {}

  /** Go's {@code %q} / {@code strconv.Quote}. */
  public static String quote(String s) {
    return GoText.quote(s);
  }

  /** Shortest round-trip decimal without exponent, {@code NaN}, {@code +Inf}, {@code -Inf}. */
  public static String formatFloat(double v) {
    return GoNumbers.formatShortest(v);
  }

  /**
   * Go's {@code %g}: shortest round-trip digits, in exponent form ({@code 1e+06}, {@code 1.5e-05})
   * when the decimal exponent is below -4 or at least 6, as Go decides for the shortest precision.
   */
  public static String g(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    BigDecimal digits = new BigDecimal(GoNumbers.formatShortest(v)).stripTrailingZeros();
    int exponent = digits.precision() - digits.scale() - 1;
    if (exponent < -4 || exponent >= 6) {
      String unscaled = digits.unscaledValue().abs().toString();
      StringBuilder sb = new StringBuilder();
      if (digits.signum() < 0) {
        sb.append('-');
      }
      sb.append(unscaled.charAt(0));
      if (unscaled.length() > 1) {
        sb.append('.').append(unscaled, 1, unscaled.length());
      }
      sb.append('e').append(exponent < 0 ? '-' : '+');
      int magnitude = Math.abs(exponent);
      if (magnitude < 10) {
        sb.append('0');
      }
      return sb.append(magnitude).toString();
    }
    return digits.toPlainString();
  }
}
