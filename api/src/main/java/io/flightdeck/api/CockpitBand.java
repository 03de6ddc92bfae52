package io.flightdeck.api;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Many series (a run's GPUs) as one band: per bucket the minimum, median and maximum of the series'
 * last values, and the series that stray furthest from the median (mean absolute distance over the
 * buckets where they have a value), so a straggler is named, not hidden.
 */
final class CockpitBand {
  static final int OUTLIERS = 3;

  /**
   * @param nonFinite per bucket, how many series' last value is NaN or infinite: a NaN loss on one
   *     rank of 64 must show even though a band has no place for it
   * @param outliers indices into the reduced series given, furthest first
   */
  record Band(
      double[] x,
      double[] min,
      double[] median,
      double[] max,
      double[] nonFinite,
      int[] outliers) {}

  private CockpitBand() {}

  /** Series reduced on one bucket grid of {@code width} buckets. */
  static Band of(List<CockpitBuckets.Reduced> series, int width) {
    // Each bucket's values side by side in one array (offsets by bucket), sorted in place: a
    // 64-GPU day is 64 x 1,000 values, sorted a bucket at a time without boxing.
    int[] start = new int[width + 1];
    int[] nonFinite = new int[width];
    boolean[] used = new boolean[width];
    double[] lastX = new double[width];
    Arrays.fill(lastX, Double.NaN);
    for (CockpitBuckets.Reduced reduced : series) {
      for (int i = 0; i < reduced.size(); i++) {
        int b = reduced.bucket()[i];
        double v = reduced.last()[i];
        used[b] = true;
        if (!Double.isNaN(v)) {
          start[b + 1]++;
        }
        if (!Double.isFinite(v)) {
          nonFinite[b]++;
        }
        lastX[b] = Double.isNaN(lastX[b]) ? reduced.x()[i] : Math.max(lastX[b], reduced.x()[i]);
      }
    }
    for (int b = 0; b < width; b++) {
      start[b + 1] += start[b];
    }
    double[] values = new double[start[width]];
    int[] filled = Arrays.copyOf(start, width);
    for (CockpitBuckets.Reduced reduced : series) {
      for (int i = 0; i < reduced.size(); i++) {
        double v = reduced.last()[i];
        if (!Double.isNaN(v)) {
          values[filled[reduced.bucket()[i]]++] = v;
        }
      }
    }
    int rows = 0;
    for (boolean u : used) {
      rows += u ? 1 : 0;
    }
    double[] x = new double[rows];
    double[] min = new double[rows];
    double[] median = new double[rows];
    double[] max = new double[rows];
    double[] nonFiniteOut = new double[rows];
    double[] medianOf = new double[width];
    Arrays.fill(medianOf, Double.NaN);
    int row = 0;
    for (int b = 0; b < width; b++) {
      if (!used[b]) {
        continue;
      }
      int from = start[b];
      int to = start[b + 1];
      Arrays.sort(values, from, to);
      medianOf[b] = median(values, from, to);
      x[row] = lastX[b];
      min[row] = from == to ? Double.NaN : values[from];
      median[row] = medianOf[b];
      max[row] = from == to ? Double.NaN : values[to - 1];
      nonFiniteOut[row++] = nonFinite[b];
    }
    return new Band(x, min, median, max, nonFiniteOut, outliers(series, medianOf));
  }

  private static int[] outliers(List<CockpitBuckets.Reduced> series, double[] medianOf) {
    if (series.size() <= 1) {
      return new int[0];
    }
    double[] score = new double[series.size()];
    for (int s = 0; s < series.size(); s++) {
      CockpitBuckets.Reduced reduced = series.get(s);
      double sum = 0;
      int n = 0;
      for (int i = 0; i < reduced.size(); i++) {
        double distance = Math.abs(reduced.last()[i] - medianOf[reduced.bucket()[i]]);
        if (Double.isFinite(distance)) {
          sum += distance;
          n++;
        }
      }
      score[s] = n == 0 ? 0 : sum / n;
    }
    Integer[] order = new Integer[series.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingDouble((Integer i) -> -score[i]).thenComparing(i -> i));
    return Arrays.stream(order)
        .limit(OUTLIERS)
        .filter(i -> score[i] > 0)
        .mapToInt(Integer::intValue)
        .toArray();
  }

  /** The median of {@code sorted[from, to)}. */
  private static double median(double[] sorted, int from, int to) {
    int n = to - from;
    if (n == 0) {
      return Double.NaN;
    }
    int mid = from + n / 2;
    return n % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }
}
