package io.flightdeck.api;

import java.math.BigDecimal;

/**
 * Floats written as Prometheus's Go code writes them: the shortest digits that read back to the
 * same double ({@link Double#toString} gives those since JDK 19), laid out like Go's {@code
 * strconv.FormatFloat}.
 */
final class GoFloats {
  private GoFloats() {}

  /**
   * A sample value as the API writes it ({@code jsonutil.MarshalFloat}): plain digits, or Go's
   * exponent form ({@code 1e-07}, {@code 1.5e+21}) below 1e-6 and from 1e21 on.
   */
  static String sampleValue(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && (abs < 1e-6 || abs >= 1e21) && Double.isFinite(v)) {
      return exponent(v, 2);
    }
    return plain(v);
  }

  /**
   * Appends {@link #sampleValue}; whole numbers (utilisation, counts, bytes) take a shortcut around
   * {@link Double#toString}, since Go prints them as plain integers too.
   */
  static void appendSampleValue(ResponseBytes out, double v) {
    double abs = Math.abs(v);
    if (v != 0 && v == Math.rint(v) && abs < 1e15) {
      out.append((long) v);
    } else if (abs >= 1e-3 && abs < 1e7) {
      // Java writes plain digits in this range already; only a bare ".0" must go.
      String java = Double.toString(v);
      out.append(java, 0, java.endsWith(".0") ? java.length() - 2 : java.length());
    } else if (abs >= Double.MIN_NORMAL && abs >= 1e-6 && abs < 1e21) {
      appendPlainFromJava(out, Double.toString(v));
    } else {
      out.append(sampleValue(v));
    }
  }

  /** {@code FormatFloat(v, 'f', -1, 64)}: never an exponent; {@code NaN}, {@code +Inf}. */
  static String plain(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return 1 / v < 0 ? "-0" : "0";
    }
    if (Math.abs(v) < Double.MIN_NORMAL) {
      return shortest(v).toPlainString();
    }
    ResponseBytes out = new ResponseBytes(24);
    appendPlainFromJava(out, Double.toString(v));
    return out.toString();
  }

  /**
   * Appends {@link Double#toString} ({@code 90.0}, {@code 1.5E-7}) without an exponent and without
   * trailing zeros. For normal doubles its digits are the shortest, as Go's are, so only the layout
   * differs; this path avoids a BigDecimal and intermediate strings per sample on large results.
   * The characters are all ASCII.
   */
  private static void appendPlainFromJava(ResponseBytes out, String java) {
    int e = java.indexOf('E');
    if (e < 0) {
      // Between 1e-3 and 1e7 Java already writes plain digits; only a bare ".0" must go.
      out.append(java, 0, java.endsWith(".0") ? java.length() - 2 : java.length());
      return;
    }
    // Java's form here is [-]d.ddddE[-]x: one digit before the point, never trailing zeros
    // beyond the first fractional one.
    boolean negative = java.charAt(0) == '-';
    int first = negative ? 1 : 0;
    int exponent = Integer.parseInt(java, e + 1, java.length(), 10);
    // The significant digits are java[first] and java[first + 2, fractionEnd).
    int fractionEnd = e;
    while (fractionEnd > first + 2 && java.charAt(fractionEnd - 1) == '0') {
      fractionEnd--;
    }
    int digitCount = 1 + (fractionEnd - first - 2);
    int point = 1 + exponent;
    if (negative) {
      out.append('-');
    }
    if (point <= 0) {
      out.append("0.");
      out.repeat('0', -point);
      appendDigits(out, java, first, 0, digitCount);
    } else if (point >= digitCount) {
      appendDigits(out, java, first, 0, digitCount);
      out.repeat('0', point - digitCount);
    } else {
      appendDigits(out, java, first, 0, point);
      out.append('.');
      appendDigits(out, java, first, point, digitCount);
    }
  }

  /** Appends significant digits [from, to) of Java's d.dddd form, skipping its point. */
  private static void appendDigits(ResponseBytes out, String java, int first, int from, int to) {
    for (int i = from; i < to; i++) {
      out.append(java.charAt(i == 0 ? first : first + 1 + i));
    }
  }

  /**
   * A JSON number as Go's {@code encoding/json} writes a float64: plain, or exponent form with the
   * exponent's leading zero dropped ({@code 1e-7}) below 1e-6 and from 1e21 on. Finite only.
   */
  static String jsonNumber(double v) {
    double abs = Math.abs(v);
    if (abs != 0 && (abs < 1e-6 || abs >= 1e21)) {
      return exponent(v, 1);
    }
    return plain(v);
  }

  private static String exponent(double v, int minExponentDigits) {
    BigDecimal d = shortest(v);
    String digits = d.unscaledValue().abs().toString();
    int exp = digits.length() - 1 - d.scale();
    StringBuilder out = new StringBuilder();
    if (v < 0) {
      out.append('-');
    }
    out.append(digits.charAt(0));
    if (digits.length() > 1) {
      out.append('.').append(digits, 1, digits.length());
    }
    out.append('e').append(exp < 0 ? '-' : '+');
    String magnitude = Integer.toString(Math.abs(exp));
    out.append("0".repeat(Math.max(0, minExponentDigits - magnitude.length()))).append(magnitude);
    return out.toString();
  }

  private static BigDecimal shortest(double v) {
    BigDecimal d = new BigDecimal(Double.toString(v)).stripTrailingZeros();
    // Double.toString never gives fewer than two digits (4.9E-324); Go's shortest may be one.
    if (d.precision() == 2) {
      BigDecimal one = d.round(new java.math.MathContext(1, java.math.RoundingMode.HALF_EVEN));
      if (one.doubleValue() == v) {
        return one.stripTrailingZeros();
      }
    }
    return d;
  }
}
