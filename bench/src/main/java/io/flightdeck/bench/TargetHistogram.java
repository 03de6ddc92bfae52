package io.flightdeck.bench;

import java.util.SplittableRandom;

/**
 * A histogram of a synthetic target: cumulative buckets, count and sum, fed a few dozen
 * observations per interval, most of them in the lower buckets as latencies are.
 */
final class TargetHistogram {
  private final double[] bounds;
  private final TargetSeries[] buckets;
  private final TargetSeries count;
  private final TargetSeries sum;
  private final double sumScale;

  /**
   * @param bounds upper bounds of the finite buckets, ascending; {@code buckets} has one more, +Inf
   * @param sumDecimals decimals the sum series is written with
   */
  TargetHistogram(
      double[] bounds,
      TargetSeries[] buckets,
      TargetSeries count,
      TargetSeries sum,
      int sumDecimals) {
    this.bounds = bounds;
    this.buckets = buckets;
    this.count = count;
    this.sum = sum;
    this.sumScale = Math.pow(10, sumDecimals);
  }

  void advance(SplittableRandom random) {
    int observations = 20 + random.nextInt(40);
    for (int i = 0; i < observations; i++) {
      // Each step up the bounds is half as likely as the one below.
      int bucket =
          Math.min(Long.numberOfTrailingZeros(random.nextLong() | Long.MIN_VALUE), bounds.length);
      double value = bucket < bounds.length ? bounds[bucket] * 0.8 : bounds[bounds.length - 1] * 2;
      for (int b = bucket; b < buckets.length; b++) {
        buckets[b].units++;
      }
      count.units++;
      sum.units += Math.round(value * sumScale);
    }
  }
}
