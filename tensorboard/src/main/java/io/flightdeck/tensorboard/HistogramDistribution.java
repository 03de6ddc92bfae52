package io.flightdeck.tensorboard;

/**
 * A histogram reduced to the values at nine fixed fractions of its weight, as TensorBoard's
 * Distributions dashboard draws it: the normal distribution's CDF at -inf, -1.5, -1, -0.5, 0, 0.5,
 * 1, 1.5 and +inf standard deviations (basis points 0, 668, 1587, 3085, 5000, 6915, 8413, 9332,
 * 10000). Within a bucket values are taken as spread evenly between its edges, the lowest and
 * highest clamped to the histogram's min and max, as TensorBoard's compressor does.
 */
final class HistogramDistribution {
  /** The fractions, in basis points (1/10,000). */
  static final int[] BASIS_POINTS = {0, 668, 1587, 3085, 5000, 6915, 8413, 9332, 10000};

  private static final double FULL_WEIGHT = 10_000;

  private HistogramDistribution() {}

  /** The value at each of {@link #BASIS_POINTS}; all 0 for an empty histogram. */
  static double[] of(HistogramPoint p) {
    double[] values = new double[BASIS_POINTS.length];
    int n = p.bucketCounts().size();
    double total = p.totalCount();
    if (p.num() == 0 || n == 0) {
      return values;
    }
    // Cumulative weight up to the end of each bucket, scaled to FULL_WEIGHT.
    double[] weights = new double[n];
    double running = 0;
    for (int i = 0; i < n; i++) {
      running += p.bucketCount(i) * FULL_WEIGHT / (total == 0 ? 1 : total);
      weights[i] = running;
    }
    int next = 0;
    for (int b = 0; b < BASIS_POINTS.length; b++) {
      int point = BASIS_POINTS[b];
      // The first bucket whose cumulative weight passes the point, skipping empty ones.
      int i = next;
      while (i < n && (weights[i] <= point || weights[i] == below(weights, i))) {
        i++;
      }
      if (i == n) {
        for (int rest = b; rest < values.length; rest++) {
          values[rest] = p.max();
        }
        return values;
      }
      next = i;
      double before = below(weights, i);
      double low = i == 0 || before == 0 ? p.min() : Math.max(p.bucketLimit(i - 1), p.min());
      double high = Math.min(p.bucketLimit(i), p.max());
      values[b] = low + (point - before) * (high - low) / (weights[i] - before);
    }
    return values;
  }

  private static double below(double[] weights, int i) {
    return i > 0 ? weights[i - 1] : 0;
  }
}
