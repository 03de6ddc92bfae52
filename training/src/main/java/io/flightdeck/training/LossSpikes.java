package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spike}: a loss sample far above the loss's recent level, by a robust z-score: the level is
 * the median of the last {@link #LEVEL} finite samples of the same series, the noise the MAD of the
 * first differences over the last {@link #WINDOW} (divided by √2), so that a loss still falling
 * fast does not pass for noise. Every sample enters the window, so a lasting rise becomes the new
 * level instead of spiking for ever. After a spike, the next one needs the z-score to have fallen
 * below half the threshold first. The window starts afresh at a restart (a checkpoint's loss is
 * higher than the one before the crash) and after a gap of more than {@link #GAP_INTERVALS} usual
 * intervals. Ranks of one run spike together: their detections within a few intervals are one
 * event.
 */
final class LossSpikes {
  static final int WINDOW = 60;
  static final int MIN_WINDOW = 20;
  static final int LEVEL = 10;
  static final double Z = 8;

  /** A rise smaller than this fraction of the level is no spike, however flat the loss was. */
  static final double MIN_RELATIVE_RISE = 0.05;

  static final int GAP_INTERVALS = 10;

  private LossSpikes() {}

  static List<RunEvent> detect(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    for (Series series : window.series().of(TrainingRole.LOSS)) {
      SeriesReads.Samples samples = SeriesReads.range(series, window.readFrom(), window.endMs());
      found.addAll(ofSeries(window, series, samples));
    }
    return Detections.merge(found, 3 * window.intervalMs());
  }

  private static List<RunEvent> ofSeries(
      RunWindow window, Series series, SeriesReads.Samples samples) {
    List<RunEvent> found = new ArrayList<>();
    long usual = Math.max(samples.medianInterval(), 1);
    double[] history = new double[WINDOW];
    int held = 0;
    int next = 0;
    int segment = Integer.MIN_VALUE;
    long last = Long.MIN_VALUE;
    boolean armed = true;
    for (int i = 0; i < samples.size(); i++) {
      double v = samples.values()[i];
      long t = samples.times()[i];
      int nowSegment = window.segmentAt(t);
      if (nowSegment != segment || (last != Long.MIN_VALUE && t - last > GAP_INTERVALS * usual)) {
        held = 0;
        next = 0;
        armed = true;
        segment = nowSegment;
      }
      if (!Double.isFinite(v)) {
        continue; // the nan event's business; not part of the level
      }
      last = t;
      if (held >= MIN_WINDOW) {
        double[] recent = ordered(history, held, next);
        double median = RobustStats.median(recent, recent.length - LEVEL, recent.length);
        double[] steps = new double[recent.length - 1];
        for (int k = 1; k < recent.length; k++) {
          steps[k - 1] = recent[k] - recent[k - 1];
        }
        double center = RobustStats.median(steps);
        double sigma =
            RobustStats.MAD_TO_SIGMA
                * RobustStats.mad(steps, 0, steps.length, center)
                / Math.sqrt(2);
        double rise = v - median;
        double z = sigma > 0 ? rise / sigma : Double.POSITIVE_INFINITY;
        boolean spike = z > Z && rise > MIN_RELATIVE_RISE * Math.abs(median);
        if (spike && armed && t >= window.startMs()) {
          found.add(
              RunEvents.event(
                  "spike",
                  t,
                  null,
                  window.stepAt(t),
                  Hosts.of(series.labels()),
                  RunHardware.gpuIndex(series.labels()),
                  "loss spike: " + round(v) + " against a level of " + round(median),
                  RunEvents.labels(series.labels()),
                  RunEvents.evidence(
                      "series",
                      series.labels().toString(),
                      "value",
                      v,
                      "level",
                      median,
                      "noise",
                      sigma,
                      "z",
                      Double.isFinite(z) ? z : Double.MAX_VALUE)));
        }
        if (spike) {
          armed = false;
        } else if (z < Z / 2) {
          armed = true;
        }
      }
      history[next] = v;
      next = (next + 1) % WINDOW;
      held = Math.min(WINDOW, held + 1);
    }
    return found;
  }

  /** The ring buffer's {@code held} values, oldest first; {@code next} is where the next goes. */
  private static double[] ordered(double[] ring, int held, int next) {
    double[] out = new double[held];
    for (int k = 0; k < held; k++) {
      out[k] = ring[(next - held + k + ring.length) % ring.length];
    }
    return out;
  }

  static double round(double v) {
    return Double.parseDouble(String.format(java.util.Locale.ROOT, "%.4g", v));
  }
}
