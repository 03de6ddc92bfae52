package io.flightdeck.bench;

import java.util.SplittableRandom;

/**
 * Shape of a gauge: it follows the {@link TrainingSchedule} between an idle and a busy level, sits
 * on plateaus that shift about once an hour, lags behind its target by {@code inertia} (1 = at
 * once; temperatures and load averages are slow), and carries Gaussian noise. Values are clamped
 * and rounded to {@code quantum}, the resolution the exporter reports.
 */
record Gauge(
    double idle,
    double busy,
    double noise,
    double plateauSpread,
    double inertia,
    double min,
    double max,
    double quantum) {

  private static final double PLATEAU_CHANGE_PER_SLICE = 1.0 / 240;

  /** A constant, exactly as many real series are (clock limits, totals, error gauges at 0). */
  static Gauge constant(double value) {
    return between(value, value);
  }

  static Gauge between(double idle, double busy) {
    return new Gauge(idle, busy, 0, 0, 1, 0, Double.MAX_VALUE, 1);
  }

  Gauge noise(double sd) {
    return new Gauge(idle, busy, sd, plateauSpread, inertia, min, max, quantum);
  }

  Gauge plateaus(double spread) {
    return new Gauge(idle, busy, noise, spread, inertia, min, max, quantum);
  }

  Gauge inertia(double fraction) {
    return new Gauge(idle, busy, noise, plateauSpread, fraction, min, max, quantum);
  }

  Gauge range(double low, double high) {
    return new Gauge(idle, busy, noise, plateauSpread, inertia, low, high, quantum);
  }

  Gauge quantum(double resolution) {
    return new Gauge(idle, busy, noise, plateauSpread, inertia, min, max, resolution);
  }

  ValueModel model(SplittableRandom random) {
    return new ValueModel() {
      private double offset;
      private double level = idle;

      @Override
      public double next(int slice) {
        if (plateauSpread > 0 && random.nextDouble() < PLATEAU_CHANGE_PER_SLICE) {
          offset = random.nextGaussian() * plateauSpread;
        }
        double target = idle + (busy - idle) * TrainingSchedule.activity(slice) + offset;
        level += (target - level) * inertia;
        double value = noise > 0 ? level + random.nextGaussian() * noise : level;
        return ValueModel.quantize(Math.min(max, Math.max(min, value)), quantum);
      }
    };
  }
}
