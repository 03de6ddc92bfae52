package io.flightdeck.exposition;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Number syntax shared by both formats. Values follow Go's {@code strconv.ParseFloat} as Prometheus
 * restricts it (decimal only: no hex, no {@code p} exponents, no underscores), which is also the
 * OpenMetrics grammar. Java's own parser is only reached after the grammar is checked, because it
 * accepts more ({@code 1d}, hex, surrounding blanks).
 */
final class Numbers {
  private static final long MAX_EXACT_SECONDS = 9_000_000_000_000_000L / 1000;

  private Numbers() {}

  /** Parses a value; null when {@code token} is not a number. */
  static Double parseValue(String token) {
    Double special = special(token);
    if (special != null) {
      return special;
    }
    if (!isDecimal(token)) {
      return null;
    }
    double value = Double.parseDouble(token);
    // Go reports overflow as an error instead of rounding to infinity.
    return Double.isInfinite(value) ? null : value;
  }

  private static Double special(String token) {
    String body = token;
    double sign = 1;
    if (!token.isEmpty() && (token.charAt(0) == '+' || token.charAt(0) == '-')) {
      sign = token.charAt(0) == '-' ? -1 : 1;
      body = token.substring(1);
    }
    if (body.equalsIgnoreCase("inf") || body.equalsIgnoreCase("infinity")) {
      return sign * Double.POSITIVE_INFINITY;
    }
    if (body.equalsIgnoreCase("nan") && body.length() == token.length()) {
      return Double.NaN;
    }
    return null;
  }

  /** {@code [+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?} */
  static boolean isDecimal(String s) {
    int i = 0;
    int n = s.length();
    if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
      i++;
    }
    int intDigits = digits(s, i);
    i += intDigits;
    int fracDigits = 0;
    if (i < n && s.charAt(i) == '.') {
      i++;
      fracDigits = digits(s, i);
      i += fracDigits;
    }
    if (intDigits == 0 && fracDigits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int expDigits = digits(s, i);
      if (expDigits == 0) {
        return false;
      }
      i += expDigits;
    }
    return i == n;
  }

  private static int digits(String s, int from) {
    int i = from;
    while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
      i++;
    }
    return i - from;
  }

  /** A text-format timestamp: integer milliseconds; null when invalid. */
  static Long parseMillis(String token) {
    if (token.isEmpty() || token.length() > 20) {
      return null;
    }
    try {
      return Long.parseLong(token);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /**
   * An OpenMetrics timestamp: decimal seconds, converted exactly to milliseconds and truncated
   * toward zero (Prometheus truncates too, but after a binary multiplication that can be off by
   * one). Out-of-range values saturate; null when invalid or not finite.
   */
  static Long parseSecondsAsMillis(String token) {
    if (!isDecimal(token)) {
      return null;
    }
    double seconds = Double.parseDouble(token);
    if (Double.isInfinite(seconds)) {
      return seconds > 0 ? Long.MAX_VALUE : Long.MIN_VALUE;
    }
    if (Math.abs(seconds) >= MAX_EXACT_SECONDS) {
      return (long) (seconds * 1000);
    }
    if (Math.abs(seconds) < 1e-3) {
      return 0L;
    }
    return new BigDecimal(token).movePointRight(3).setScale(0, RoundingMode.DOWN).longValue();
  }
}
