package io.flightdeck.tensorboard;

import java.util.List;

/**
 * A histogram in the legacy {@code HistogramProto} shape: {@code bucketCounts[i]} counts values in
 * {@code (bucketLimits[i-1], bucketLimits[i]]}. Values of the {@code histograms} plugin ({@code
 * [k,3]} tensors of left edge, right edge, count) are converted to it: the limits are the right
 * edges, {@code min} is the first left edge, {@code max} the last right edge, {@code num} the sum
 * of the counts, and {@code sum} and {@code sumSquares} are NaN because that form does not carry
 * them. An empty {@code [0,3]} tensor gives empty lists and NaN {@code min}/{@code max}. The lists
 * are immutable.
 */
public record HistogramPoint(
    String tag,
    long step,
    double wallTimeSeconds,
    double min,
    double max,
    double num,
    double sum,
    double sumSquares,
    List<Double> bucketLimits,
    List<Double> bucketCounts)
    implements SummaryPoint {
  public HistogramPoint {
    bucketLimits = DoubleList.copyOf(bucketLimits);
    bucketCounts = DoubleList.copyOf(bucketCounts);
  }

  /** {@code bucketLimits().get(i)} without boxing. */
  public double bucketLimit(int i) {
    return ((DoubleList) bucketLimits).getDouble(i);
  }

  /** The sum of {@code bucketCounts()}, as {@code DoubleStream.sum} computes it. */
  public double totalCount() {
    return ((DoubleList) bucketCounts).sum();
  }

  /** {@code bucketCounts().get(i)} without boxing. */
  public double bucketCount(int i) {
    return ((DoubleList) bucketCounts).getDouble(i);
  }
}
