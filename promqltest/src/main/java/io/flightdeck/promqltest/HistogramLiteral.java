package io.flightdeck.promqltest;

import java.util.List;

/**
 * A native histogram written as {@code {{schema:0 sum:5 count:4 buckets:[1 2 1]}}}, with every
 * key's default (0 or empty) filled in. Bucket lists hold absolute counts, not deltas. {@code
 * counterResetHint} is null when the literal does not give one (expectations then ignore it).
 */
public record HistogramLiteral(
    int schema,
    double sum,
    double count,
    double zeroBucket,
    double zeroThreshold,
    List<Double> buckets,
    int offset,
    List<Double> negativeBuckets,
    int negativeOffset,
    List<Double> customValues,
    String counterResetHint) {

  public HistogramLiteral {
    buckets = List.copyOf(buckets);
    negativeBuckets = List.copyOf(negativeBuckets);
    customValues = List.copyOf(customValues);
  }
}
