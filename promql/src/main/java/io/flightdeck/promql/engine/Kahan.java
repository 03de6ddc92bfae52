package io.flightdeck.promql.engine;

/**
 * Kahan-Neumaier compensated summation as Prometheus does it, without allocating: callers keep the
 * running sum and compensation in their own variables.
 */
final class Kahan {
  private Kahan() {}

  /**
   * The compensation after adding {@code inc} to {@code sum}; the new sum is {@code sum + inc}. An
   * infinite sum resets the compensation, as in Prometheus.
   */
  static double compensate(double inc, double sum, double c) {
    double t = sum + inc;
    if (Double.isInfinite(t)) {
      return 0;
    }
    if (Math.abs(sum) >= Math.abs(inc)) {
      return c + ((sum - t) + inc);
    }
    return c + ((inc - t) + sum);
  }
}
