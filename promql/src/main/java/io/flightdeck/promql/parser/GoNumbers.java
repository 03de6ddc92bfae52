package io.flightdeck.promql.parser;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.Locale;

/**
 * Number conversions as Go performs them for Prometheus: literals are read with {@code
 * strconv.ParseInt(s, 0, 64)} and then {@code strconv.ParseFloat} (so {@code 017} is octal and
 * {@code 1_000} is a thousand), and printed with {@code strconv.FormatFloat(f, 'f', -1, 64)} or
 * {@code %f}.
 */
final class GoNumbers {
  private GoNumbers() {}

  /** Thrown with Go's message for a literal that is not a number. */
  static final class NumberSyntaxException extends Exception {
    NumberSyntaxException(String message) {
      super(message);
    }
  }

  /** The value of a number token, or Go's {@code strconv} error text. */
  static double parseLiteral(String s) throws NumberSyntaxException {
    Long integer = parseInteger(s);
    return integer != null ? integer : parseFloat(s);
  }

  /**
   * {@code strconv.ParseInt(s, 0, 64)} for what the lexer produces: decimal, {@code 0x} hexadecimal
   * or, with a leading zero, octal; null on any error.
   */
  private static Long parseInteger(String s) {
    if (s.indexOf('_') >= 0 && !underscoresOk(s)) {
      return null;
    }
    int radix = 10;
    String digits = s;
    if (s.length() >= 3 && s.charAt(0) == '0' && (s.charAt(1) == 'x' || s.charAt(1) == 'X')) {
      radix = 16;
      digits = s.substring(2);
    } else if (s.length() > 1 && s.charAt(0) == '0') {
      radix = 8;
      digits = s.substring(1);
    }
    digits = digits.replace("_", "");
    if (digits.isEmpty()) {
      return null;
    }
    for (int i = 0; i < digits.length(); i++) {
      if (Character.digit(digits.charAt(i), radix) < 0) {
        return null;
      }
    }
    BigInteger value = new BigInteger(digits, radix);
    return value.bitLength() < 64 ? value.longValue() : null;
  }

  /** {@code strconv.ParseFloat(s, 64)} for what the lexer produces (no signs, no hex floats). */
  private static double parseFloat(String s) throws NumberSyntaxException {
    String lower = s.toLowerCase(Locale.ROOT);
    if (lower.equals("inf")) {
      return Double.POSITIVE_INFINITY;
    }
    if (lower.equals("nan")) {
      return Double.NaN;
    }
    if (!isDecimalFloat(s) || (s.indexOf('_') >= 0 && !underscoresOk(s))) {
      throw floatError(s, "invalid syntax");
    }
    double value = Double.parseDouble(s.replace("_", ""));
    if (Double.isInfinite(value)) {
      throw floatError(s, "value out of range");
    }
    return value;
  }

  private static NumberSyntaxException floatError(String s, String reason) {
    return new NumberSyntaxException(
        "strconv.ParseFloat: parsing " + GoText.quote(s) + ": " + reason);
  }

  /** digits [. digits] [e [+-] digits], with at least one mantissa digit; '_' between digits. */
  private static boolean isDecimalFloat(String s) {
    int i = 0;
    int n = s.length();
    int mantissaDigits = 0;
    while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
      mantissaDigits += s.charAt(i) == '_' ? 0 : 1;
      i++;
    }
    if (i < n && s.charAt(i) == '.') {
      i++;
      while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
        mantissaDigits += s.charAt(i) == '_' ? 0 : 1;
        i++;
      }
    }
    if (mantissaDigits == 0) {
      return false;
    }
    if (i < n && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
      i++;
      if (i < n && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
        i++;
      }
      int exponentDigits = 0;
      while (i < n && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '_')) {
        exponentDigits += s.charAt(i) == '_' ? 0 : 1;
        i++;
      }
      if (exponentDigits == 0) {
        return false;
      }
    }
    return i == n;
  }

  /** Go's rule: an underscore must sit between digits (a base prefix counts as a digit). */
  private static boolean underscoresOk(String s) {
    char saw = '^';
    int i = 0;
    boolean hex = false;
    if (s.length() >= 2 && s.charAt(0) == '0' && Character.toLowerCase(s.charAt(1)) == 'x') {
      i = 2;
      saw = '0';
      hex = true;
    }
    for (; i < s.length(); i++) {
      char c = s.charAt(i);
      char lower = Character.toLowerCase(c);
      if ((c >= '0' && c <= '9') || (hex && lower >= 'a' && lower <= 'f')) {
        saw = '0';
        continue;
      }
      if (c == '_') {
        if (saw != '0') {
          return false;
        }
        saw = '_';
        continue;
      }
      if (saw == '_') {
        return false;
      }
      saw = '!';
    }
    return saw != '_';
  }

  /** {@code strconv.FormatFloat(v, 'f', -1, 64)}: shortest round-trip digits, no exponent. */
  static String formatShortest(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    BigDecimal digits = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    // Java gives two digits where one would do if two are closer (4.9E-324); Go gives one (5e-324).
    if (digits.precision() == 2) {
      BigDecimal oneDigit = digits.round(new MathContext(1, RoundingMode.HALF_EVEN));
      if (oneDigit.doubleValue() == v) {
        digits = oneDigit;
      }
    }
    return digits.toPlainString();
  }

  /** Go's {@code %.Nf}: the exact binary value rounded to {@code decimals} places. */
  static String formatFixed(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    String s = new BigDecimal(v).setScale(decimals, RoundingMode.HALF_EVEN).toPlainString();
    boolean negative = Double.doubleToRawLongBits(v) < 0;
    return negative && !s.startsWith("-") ? "-" + s : s;
  }

  /** Go's {@code math.Round}: halves away from zero. */
  static double round(double x) {
    double magnitude = Math.abs(x);
    double whole = Math.floor(magnitude);
    if (magnitude - whole >= 0.5) {
      whole += 1;
    }
    return Math.copySign(whole, x);
  }

  /**
   * Go's float-to-int64 conversion as on amd64, where values out of range become the minimum.
   * Callers check ranges first wherever Prometheus does.
   */
  static long toInt64(double x) {
    if (Double.isNaN(x) || x >= 0x1p63 || x < -0x1p63) {
      return Long.MIN_VALUE;
    }
    return (long) x;
  }
}
