package io.flightdeck.api;

import java.util.Arrays;

/**
 * Reduces one series to at most {@code width} buckets of an x range, keeping per bucket the
 * minimum, the maximum and the last value (by time), so a single-sample spike survives any
 * reduction. NaN values count as the last value but not as a minimum or maximum.
 */
final class CockpitBuckets {
  private CockpitBuckets() {}

  /**
   * One reduced series, arrays aligned, buckets ascending.
   *
   * @param bucket the bucket index of each entry, for lining up several series
   * @param x the x of the bucket's last sample
   */
  record Reduced(int[] bucket, double[] x, double[] min, double[] max, double[] last) {
    int size() {
      return bucket.length;
    }
  }

  /** Reduces samples given in time order, at {@code xs} (NaN x: left out). */
  static Reduced reduce(double[] xs, double[] values, double lo, double hi, int width) {
    double[] min = new double[width];
    double[] max = new double[width];
    double[] last = new double[width];
    double[] lastX = new double[width];
    boolean[] used = new boolean[width];
    Arrays.fill(min, Double.NaN);
    Arrays.fill(max, Double.NaN);
    // Bucket b holds [lo + b * (hi - lo) / width, lo + (b + 1) * (hi - lo) / width); what lies
    // outside [lo, hi] goes to the first or last bucket. One pass, a multiply per sample: a page
    // reduces millions of samples.
    double scale = hi > lo ? width / (hi - lo) : 0;
    int count = 0;
    for (int i = 0; i < xs.length; i++) {
      double x = xs[i];
      if (Double.isNaN(x)) {
        continue;
      }
      double position = (x - lo) * scale;
      int b = position <= 0 ? 0 : position >= width ? width - 1 : (int) position;
      double v = values[i];
      if (!used[b]) {
        used[b] = true;
        count++;
      }
      last[b] = v;
      lastX[b] = x;
      // Comparisons with NaN are false: a bucket's first value replaces its NaN start, and a NaN
      // value is never a minimum or maximum.
      if (!(v >= min[b])) {
        min[b] = Double.isNaN(v) ? min[b] : v;
      }
      if (!(v <= max[b])) {
        max[b] = Double.isNaN(v) ? max[b] : v;
      }
    }
    int[] buckets = new int[count];
    double[] outX = new double[count];
    double[] outMin = new double[count];
    double[] outMax = new double[count];
    double[] outLast = new double[count];
    int n = 0;
    for (int b = 0; b < width; b++) {
      if (used[b]) {
        buckets[n] = b;
        outX[n] = lastX[b];
        outMin[n] = min[b];
        outMax[n] = max[b];
        outLast[n++] = last[b];
      }
    }
    return new Reduced(buckets, outX, outMin, outMax, outLast);
  }
}
