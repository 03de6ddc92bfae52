package io.flightdeck.promql.engine;

/**
 * Prometheus's φ-quantile of a set of values: linear interpolation between the two ranks around
 * φ·(n−1), with NaNs ranked below every number as Go's sort ranks them. The two ranks are found by
 * selection instead of a full sort: {@code quantile_over_time} over an hour of 15 s samples sorts
 * 240 values per series and step, where selection needs one partitioning pass on average.
 */
final class Quantiles {
  /** Below this many values a range is finished by insertion sort. */
  private static final int SMALL_RANGE = 16;

  private Quantiles() {}

  /**
   * The q-quantile of {@code values}, which it rearranges: every caller hands over a copy. NaN for
   * no values or a NaN q, −Inf for q below 0, +Inf for q above 1, as in Prometheus.
   */
  static double quantile(double q, double[] values) {
    if (values.length == 0 || Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    int n = values.length;
    int nans = moveNaNsToFront(values);
    double rank = q * (n - 1);
    int lower = (int) Math.max(0, Math.floor(rank));
    int upper = (int) Math.min(n - 1, lower + 1);
    double weight = rank - Math.floor(rank);
    double below = lower < nans ? Double.NaN : select(values, nans, n, lower);
    double above;
    if (upper == lower) {
      above = below;
    } else if (upper < nans) {
      above = Double.NaN;
    } else {
      // Selection left every value after the lower rank at least as large as it (and when the
      // lower rank is a NaN, the numbers start at the upper one): the upper rank is their minimum.
      above = min(values, Math.max(lower + 1, nans), n);
    }
    return below * (1 - weight) + above * weight;
  }

  /** Moves the NaNs to the front and returns their count; the order of the rest is not kept. */
  private static int moveNaNsToFront(double[] values) {
    int nans = 0;
    for (int i = 0; i < values.length; i++) {
      if (Double.isNaN(values[i])) {
        values[i] = values[nans];
        values[nans++] = Double.NaN;
      }
    }
    return nans;
  }

  /**
   * The value of rank {@code k} among {@code values[from, to)} (no NaNs there), leaving every value
   * after index {@code k} in that range at least as large, and every one before it at most as large
   * (Hoare's selection with a median-of-three pivot).
   */
  private static double select(double[] values, int from, int to, int k) {
    int lo = from;
    int hi = to - 1;
    while (hi - lo >= SMALL_RANGE) {
      double pivot = medianOfThree(values[lo], values[(lo + hi) >>> 1], values[hi]);
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (values[i] < pivot) {
          i++;
        }
        while (values[j] > pivot) {
          j--;
        }
        if (i <= j) {
          double swap = values[i];
          values[i++] = values[j];
          values[j--] = swap;
        }
      }
      // Now values[lo..j] <= pivot <= values[i..hi], and whatever lies between equals the pivot.
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return values[k];
      }
    }
    for (int i = lo + 1; i <= hi; i++) {
      double value = values[i];
      int j = i - 1;
      while (j >= lo && values[j] > value) {
        values[j + 1] = values[j];
        j--;
      }
      values[j + 1] = value;
    }
    return values[k];
  }

  private static double medianOfThree(double a, double b, double c) {
    return Math.max(Math.min(a, b), Math.min(Math.max(a, b), c));
  }

  private static double min(double[] values, int from, int to) {
    double min = values[from];
    for (int i = from + 1; i < to; i++) {
      if (values[i] < min) {
        min = values[i];
      }
    }
    return min;
  }
}
