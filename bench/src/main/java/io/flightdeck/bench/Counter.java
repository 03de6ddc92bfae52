package io.flightdeck.bench;

import java.util.SplittableRandom;

/**
 * Shape of a monotonic counter: it grows by a per-second rate that follows the {@link
 * TrainingSchedule} between {@code idleRate} and {@code busyRate}, with relative noise, from a
 * start value (hosts have been up for days, so totals are large). Reported values are rounded to
 * {@code quantum}; rounding a growing total keeps it monotonic.
 */
record Counter(double idleRate, double busyRate, double relativeNoise, double quantum) {

  static Counter rate(double idleRate, double busyRate) {
    return new Counter(idleRate, busyRate, 0.05, 1);
  }

  Counter quantum(double resolution) {
    return new Counter(idleRate, busyRate, relativeNoise, resolution);
  }

  ValueModel model(SplittableRandom random, double start) {
    double intervalSeconds = WorkloadGenerator.INTERVAL_MS / 1000.0;
    return new ValueModel() {
      private double total = start;

      @Override
      public double next(int slice) {
        double rate = idleRate + (busyRate - idleRate) * TrainingSchedule.activity(slice);
        double jitter = 1 + random.nextGaussian() * relativeNoise;
        total += Math.max(0, rate * intervalSeconds * jitter);
        return ValueModel.quantize(total, quantum);
      }
    };
  }
}
