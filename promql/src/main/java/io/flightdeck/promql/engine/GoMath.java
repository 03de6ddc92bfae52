package io.flightdeck.promql.engine;

/**
 * Go's {@code math} functions where Java's differ in special cases, so results match Prometheus bit
 * for bit.
 */
final class GoMath {
  private GoMath() {}

  /** Go's {@code math.Pow}: {@code Pow(1, y) = 1} and {@code Pow(-1, ±Inf) = 1}, unlike Java. */
  static double pow(double x, double y) {
    if (x == 1 || y == 0) {
      return 1;
    }
    if (x == -1 && Double.isInfinite(y)) {
      return 1;
    }
    return Math.pow(x, y);
  }

  /** Go's {@code math.Round}: halves away from zero. */
  static double round(double x) {
    if (Double.isNaN(x) || Double.isInfinite(x)) {
      return x;
    }
    double magnitude = Math.abs(x);
    double whole = Math.floor(magnitude);
    if (magnitude - whole >= 0.5) {
      whole += 1;
    }
    return Math.copySign(whole, x);
  }
}
