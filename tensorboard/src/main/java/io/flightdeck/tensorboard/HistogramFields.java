package io.flightdeck.tensorboard;

import java.util.List;

/**
 * A legacy {@code histo} histogram's fields, as the reader's shortcut for events of one histogram
 * hands them over (see {@link EventListener#histogram}) and the import's batches hand them on: one
 * object, refilled for each histogram and valid only until the next, with the bucket counts in
 * {@code counts[countsFrom, countsTo)} of a shared array. A listener that keeps many histograms
 * copies the fields instead of keeping a {@link HistogramPoint} with its own counts each.
 */
public final class HistogramFields {
  String tag;
  long step;
  double wallTimeSeconds;
  double min;
  double max;
  double num;
  double sum;
  double sumSquares;
  List<Double> bucketLimits;
  double[] counts;
  int countsFrom;
  int countsTo;

  public String tag() {
    return tag;
  }

  public long step() {
    return step;
  }

  public double wallTimeSeconds() {
    return wallTimeSeconds;
  }

  public double min() {
    return min;
  }

  public double max() {
    return max;
  }

  public double num() {
    return num;
  }

  public double sum() {
    return sum;
  }

  public double sumSquares() {
    return sumSquares;
  }

  /** Immutable: may be kept. */
  public List<Double> bucketLimits() {
    return bucketLimits;
  }

  public int countCount() {
    return countsTo - countsFrom;
  }

  /** Bucket count {@code i}, as {@link HistogramPoint#bucketCount}. */
  public double bucketCount(int i) {
    return counts[countsFrom + i];
  }

  /** The sum of the bucket counts, as {@link HistogramPoint#totalCount}. */
  public double totalCount() {
    return DoubleList.sum(counts, countsFrom, countsTo);
  }

  /** Copies the bucket counts into {@code into} at {@code at}. */
  public void copyCounts(double[] into, int at) {
    System.arraycopy(counts, countsFrom, into, at, countCount());
  }

  /** An immutable point of these fields, with a copy of the counts. */
  public HistogramPoint toPoint() {
    return new HistogramPoint(
        tag,
        step,
        wallTimeSeconds,
        min,
        max,
        num,
        sum,
        sumSquares,
        bucketLimits,
        DoubleList.copyOfRange(counts, countsFrom, countsTo));
  }

  /** Refills these fields with {@code p}'s, its counts read in place. */
  HistogramFields of(HistogramPoint p) {
    tag = p.tag();
    step = p.step();
    wallTimeSeconds = p.wallTimeSeconds();
    min = p.min();
    max = p.max();
    num = p.num();
    sum = p.sum();
    sumSquares = p.sumSquares();
    bucketLimits = p.bucketLimits();
    counts = DoubleList.copyOf(p.bucketCounts()).array();
    countsFrom = 0;
    countsTo = counts.length;
    return this;
  }
}
