package io.flightdeck.promql.engine;

import java.util.Arrays;

/**
 * Quantiles and fractions over the cumulative {@code le} buckets of a classic histogram, with
 * Prometheus's rules: buckets sorted by bound and equal bounds merged, a {@code +Inf} bucket
 * required, counts forced monotonic, linear interpolation inside a bucket.
 */
final class ClassicHistograms {
  private static final double SMALL_DELTA_TOLERANCE = 1e-12;
  private static final double MIN_NORMAL = Double.MIN_NORMAL;

  /** Upper bounds and cumulative counts, index-aligned. */
  static final class Buckets {
    double[] bounds = new double[8];
    double[] counts = new double[8];
    int size;

    /** Set when counts had to be raised to keep them monotonic. */
    boolean forcedMonotonic;

    void add(double bound, double count) {
      if (size == bounds.length) {
        bounds = Arrays.copyOf(bounds, size * 2);
        counts = Arrays.copyOf(counts, size * 2);
      }
      bounds[size] = bound;
      counts[size] = count;
      size++;
    }

    Buckets copy() {
      Buckets c = new Buckets();
      c.bounds = Arrays.copyOf(bounds, bounds.length);
      c.counts = Arrays.copyOf(counts, counts.length);
      c.size = size;
      return c;
    }

    private void sortAndCoalesce() {
      Integer[] order = new Integer[size];
      for (int i = 0; i < size; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Double.compare(bounds[a], bounds[b]));
      double[] b = new double[size];
      double[] c = new double[size];
      int n = 0;
      for (int idx : order) {
        if (n > 0 && b[n - 1] == bounds[idx]) {
          c[n - 1] += counts[idx];
        } else {
          b[n] = bounds[idx];
          c[n] = counts[idx];
          n++;
        }
      }
      bounds = b;
      counts = c;
      size = n;
    }
  }

  private ClassicHistograms() {}

  static double quantile(double q, Buckets buckets) {
    if (Double.isNaN(q)) {
      return Double.NaN;
    }
    if (q < 0) {
      return Double.NEGATIVE_INFINITY;
    }
    if (q > 1) {
      return Double.POSITIVE_INFINITY;
    }
    buckets.sortAndCoalesce();
    if (buckets.bounds[buckets.size - 1] != Double.POSITIVE_INFINITY) {
      return Double.NaN;
    }
    ensureMonotonic(buckets);
    int n = buckets.size;
    if (n < 2) {
      return Double.NaN;
    }
    double observations = buckets.counts[n - 1];
    if (observations == 0) {
      return Double.NaN;
    }
    double rank = q * observations;
    int b = 0;
    while (b < n - 1 && !(buckets.counts[b] >= rank)) {
      b++;
    }
    if (b == n - 1) {
      return buckets.bounds[n - 2];
    }
    if (b == 0 && buckets.bounds[0] <= 0) {
      return buckets.bounds[0];
    }
    double bucketStart = 0;
    double bucketEnd = buckets.bounds[b];
    double count = buckets.counts[b];
    if (b > 0) {
      bucketStart = buckets.bounds[b - 1];
      count -= buckets.counts[b - 1];
      rank -= buckets.counts[b - 1];
    }
    return bucketStart + (bucketEnd - bucketStart) * (rank / count);
  }

  private static void ensureMonotonic(Buckets buckets) {
    double prev = buckets.counts[0];
    for (int i = 1; i < buckets.size; i++) {
      double curr = buckets.counts[i];
      if (curr == prev) {
        continue;
      }
      if (almostEqual(prev, curr, SMALL_DELTA_TOLERANCE)) {
        buckets.counts[i] = prev;
        continue;
      }
      if (curr < prev) {
        buckets.counts[i] = prev;
        buckets.forcedMonotonic = true;
        continue;
      }
      prev = curr;
    }
  }

  static boolean almostEqual(double a, double b, double epsilon) {
    if (Double.isNaN(a) && Double.isNaN(b)) {
      return true;
    }
    if (a == b) {
      return true;
    }
    double absSum = Math.abs(a) + Math.abs(b);
    double diff = Math.abs(a - b);
    if (a == 0 || b == 0 || absSum < MIN_NORMAL) {
      return diff < epsilon * MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < epsilon;
  }

  static double fraction(double lower, double upper, Buckets buckets) {
    buckets.sortAndCoalesce();
    int n = buckets.size;
    if (buckets.bounds[n - 1] != Double.POSITIVE_INFINITY) {
      return Double.NaN;
    }
    double count = buckets.counts[n - 1];
    if (count == 0 || Double.isNaN(lower) || Double.isNaN(upper)) {
      return Double.NaN;
    }
    if (lower >= upper) {
      return 0;
    }
    double rank = 0;
    double lowerRank = 0;
    double upperRank = 0;
    boolean lowerSet = false;
    boolean upperSet = false;
    double lowerBound = buckets.bounds[0] <= 0 ? Double.NEGATIVE_INFINITY : 0;
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        lowerBound = buckets.bounds[i - 1];
      }
      double upperBound = buckets.bounds[i];
      double bucketCount = buckets.counts[i];
      if (!lowerSet && lowerBound >= lower) {
        lowerRank = rank;
        lowerSet = true;
      }
      if (!upperSet && lowerBound >= upper) {
        upperRank = rank;
        upperSet = true;
      }
      if (lowerSet && upperSet) {
        break;
      }
      if (!lowerSet && lowerBound < lower && upperBound > lower) {
        lowerRank =
            lowerBound == Double.NEGATIVE_INFINITY
                ? bucketCount
                : rank + (bucketCount - rank) * (lower - lowerBound) / (upperBound - lowerBound);
        lowerSet = true;
      }
      if (!upperSet && lowerBound < upper && upperBound > upper) {
        upperRank =
            lowerBound == Double.NEGATIVE_INFINITY
                ? bucketCount
                : rank + (bucketCount - rank) * (upper - lowerBound) / (upperBound - lowerBound);
        upperSet = true;
      }
      if (lowerSet && upperSet) {
        break;
      }
      rank = bucketCount;
    }
    if (!lowerSet || lowerRank > count) {
      lowerRank = count;
    }
    if (!upperSet || upperRank > count) {
      upperRank = count;
    }
    return (upperRank - lowerRank) / count;
  }
}
