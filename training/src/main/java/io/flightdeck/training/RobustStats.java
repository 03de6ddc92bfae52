package io.flightdeck.training;

import java.util.Arrays;

/**
 * Median, MAD and quantiles of small arrays, for detectors that must not be moved by one outlier.
 * Non-finite values are left out.
 */
final class RobustStats {
  /** The MAD of a normal distribution times this is its standard deviation. */
  static final double MAD_TO_SIGMA = 1.4826;

  private RobustStats() {}

  /** The finite values of {@code values[from, to)}, sorted. */
  static double[] sorted(double[] values, int from, int to) {
    double[] out = new double[Math.max(0, to - from)];
    int n = 0;
    for (int i = Math.max(0, from); i < to; i++) {
      if (Double.isFinite(values[i])) {
        out[n++] = values[i];
      }
    }
    out = Arrays.copyOf(out, n);
    Arrays.sort(out);
    return out;
  }

  /** NaN when there is no finite value. */
  static double median(double[] values, int from, int to) {
    return quantileOfSorted(sorted(values, from, to), 0.5);
  }

  static double median(double[] values) {
    return median(values, 0, values.length);
  }

  /** The median absolute deviation from {@code center}; NaN when there is no finite value. */
  static double mad(double[] values, int from, int to, double center) {
    double[] sorted = sorted(values, from, to);
    for (int i = 0; i < sorted.length; i++) {
      sorted[i] = Math.abs(sorted[i] - center);
    }
    Arrays.sort(sorted);
    return quantileOfSorted(sorted, 0.5);
  }

  static double quantile(double[] values, double q) {
    return quantileOfSorted(sorted(values, 0, values.length), q);
  }

  private static double quantileOfSorted(double[] sorted, double q) {
    return sorted.length == 0 ? Double.NaN : StepProgress.quantile(sorted, q);
  }
}
