package io.flightdeck.bench;

import java.util.SplittableRandom;

/**
 * One rank's training loss: exponential decay towards a floor with per-step noise, held while a
 * checkpoint pauses training. Values pass through {@code float} because frameworks log float32
 * losses, which changes how well they compress.
 */
final class LossCurve implements ValueModel {

  private static final double FLOOR = 1.85;
  private static final double DECAY_SLICES = 2_000;
  private static final double NOISE = 0.035;

  private final SplittableRandom random;
  private final double start;
  private double last = Double.NaN;

  LossCurve(SplittableRandom random, double start) {
    this.random = random;
    this.start = start;
  }

  @Override
  public double next(int slice) {
    if (Double.isNaN(last) || !TrainingSchedule.checkpointing(slice)) {
      double trend = FLOOR + (start - FLOOR) * Math.exp(-slice / DECAY_SLICES);
      last = (float) (trend + random.nextGaussian() * NOISE);
    }
    return last;
  }
}
