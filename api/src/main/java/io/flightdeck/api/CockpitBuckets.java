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

  /** The bucket of {@code x} among {@code width} equal buckets from {@code lo} to {@code hi}. */
  static int bucketOf(double x, double lo, double hi, int width) {
    if (!(hi > lo)) {
      return 0;
    }
    int b = (int) Math.floor((x - lo) / (hi - lo) * width);
    return Math.max(0, Math.min(width - 1, b));
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
    int count = 0;
    for (int i = 0; i < xs.length; i++) {
      double x = xs[i];
      if (Double.isNaN(x)) {
        continue;
      }
      int b = bucketOf(x, lo, hi, width);
      double v = values[i];
      if (!used[b]) {
        used[b] = true;
        count++;
      }
      last[b] = v;
      lastX[b] = x;
      if (!Double.isNaN(v)) {
        if (Double.isNaN(min[b]) || v < min[b]) {
          min[b] = v;
        }
        if (Double.isNaN(max[b]) || v > max[b]) {
          max[b] = v;
        }
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
