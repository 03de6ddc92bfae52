package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spike}: a loss sample far above the loss's recent level, by a robust z-score against the
 * median and MAD of the previous {@link #WINDOW} finite samples of the same series. The window
 * starts afresh at a restart (a checkpoint's loss is higher than the one before the crash) and
 * after a gap of more than {@link #GAP_INTERVALS} usual intervals. Ranks of one run spike together:
 * their detections within a few intervals are one event, the strongest kept.
 */
final class LossSpikes {
  static final int WINDOW = 60;
  static final int MIN_WINDOW = 20;
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
    boolean inSpike = false;
    for (int i = 0; i < samples.size(); i++) {
      double v = samples.values()[i];
      long t = samples.times()[i];
      int nowSegment = window.segmentAt(t);
      if (nowSegment != segment || (last != Long.MIN_VALUE && t - last > GAP_INTERVALS * usual)) {
        held = 0;
        next = 0;
        inSpike = false;
        segment = nowSegment;
      }
      if (!Double.isFinite(v)) {
        continue; // the nan event's business; not part of the level
      }
      last = t;
      boolean spike = false;
      if (held >= MIN_WINDOW) {
        double median = RobustStats.median(history, 0, held);
        double sigma = RobustStats.MAD_TO_SIGMA * RobustStats.mad(history, 0, held, median);
        double rise = v - median;
        double z = sigma > 0 ? rise / sigma : Double.POSITIVE_INFINITY;
        spike = z > Z && rise > MIN_RELATIVE_RISE * Math.abs(median);
        if (spike && !inSpike && t >= window.startMs()) {
          found.add(
              RunEvents.event(
                  "spike",
                  t,
                  null,
                  window.stepAt(t),
                  Hosts.of(series.labels()),
                  RunHardware.gpuIndex(series.labels()),
                  "loss spike: " + round(v) + " against a median of " + round(median),
                  RunEvents.labels(series.labels()),
                  RunEvents.evidence(
                      "series",
                      series.labels().toString(),
                      "value",
                      v,
                      "median",
                      median,
                      "mad",
                      sigma / RobustStats.MAD_TO_SIGMA,
                      "z",
                      Double.isFinite(z) ? z : Double.MAX_VALUE)));
        }
      }
      inSpike = spike;
      if (!spike) {
        history[next] = v;
        next = (next + 1) % WINDOW;
        held = Math.min(WINDOW, held + 1);
      }
    }
    return found;
  }

  static double round(double v) {
    return Double.parseDouble(String.format(java.util.Locale.ROOT, "%.4g", v));
  }
}
