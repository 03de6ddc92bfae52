package io.flightdeck.api;

import java.util.ArrayList;
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
    List<List<Double>> perBucket = new ArrayList<>();
    int[] nonFinite = new int[width];
    double[] lastX = new double[width];
    Arrays.fill(lastX, Double.NaN);
    for (int b = 0; b < width; b++) {
      perBucket.add(null);
    }
    for (CockpitBuckets.Reduced reduced : series) {
      for (int i = 0; i < reduced.size(); i++) {
        int b = reduced.bucket()[i];
        double v = reduced.last()[i];
        if (perBucket.get(b) == null) {
          perBucket.set(b, new ArrayList<>());
        }
        if (!Double.isNaN(v)) {
          perBucket.get(b).add(v);
        }
        if (!Double.isFinite(v)) {
          nonFinite[b]++;
        }
        lastX[b] = Double.isNaN(lastX[b]) ? reduced.x()[i] : Math.max(lastX[b], reduced.x()[i]);
      }
    }
    List<double[]> rows = new ArrayList<>(); // x, min, median, max, non-finite count
    double[] medianOf = new double[width];
    Arrays.fill(medianOf, Double.NaN);
    for (int b = 0; b < width; b++) {
      List<Double> values = perBucket.get(b);
      if (values == null) {
        continue;
      }
      double[] sorted = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      double median = median(sorted);
      medianOf[b] = median;
      rows.add(
          new double[] {
            lastX[b],
            sorted.length == 0 ? Double.NaN : sorted[0],
            median,
            sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1],
            nonFinite[b]
          });
    }
    return new Band(
        column(rows, 0),
        column(rows, 1),
        column(rows, 2),
        column(rows, 3),
        column(rows, 4),
        outliers(series, medianOf));
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

  private static double median(double[] sorted) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int mid = sorted.length / 2;
    return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  private static double[] column(List<double[]> rows, int index) {
    double[] out = new double[rows.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = rows.get(i)[index];
    }
    return out;
  }
}
