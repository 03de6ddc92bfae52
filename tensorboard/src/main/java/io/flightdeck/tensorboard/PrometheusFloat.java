package io.flightdeck.tensorboard;

import java.math.BigDecimal;

/**
 * Formats a bucket bound the way Prometheus clients write {@code le} (Go's {@code
 * strconv.FormatFloat(v, 'g', -1, 64)}), so that our bucket series look like any other classic
 * histogram: {@code 0.005}, {@code 1}, {@code 2.5}, {@code 1e+06}, {@code 1e-05}, {@code +Inf}.
 */
final class PrometheusFloat {
  private PrometheusFloat() {}

  static String format(double v) {
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == 0) {
      return "0";
    }
    // Double.toString gives the shortest digits that round-trip, as Go's precision -1 does.
    BigDecimal exact = new BigDecimal(Double.toString(Math.abs(v))).stripTrailingZeros();
    String digits = exact.unscaledValue().toString();
    int exponent = digits.length() - exact.scale() - 1;
    String sign = v < 0 ? "-" : "";
    // Go switches to exponent form below 1e-4 and from 1e6 on (%g with shortest precision).
    if (exponent < -4 || exponent >= 6) {
      String mantissa =
          digits.length() == 1 ? digits : digits.charAt(0) + "." + digits.substring(1);
      String exp = String.format("%02d", Math.abs(exponent));
      return sign + mantissa + "e" + (exponent < 0 ? "-" : "+") + exp;
    }
    return sign + exact.toPlainString();
  }
}
