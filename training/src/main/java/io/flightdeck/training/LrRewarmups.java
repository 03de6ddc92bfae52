package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lr_rewarmup}: the learning rate rises again after it had decayed, and the loss rises after
 * it. The rate has decayed when it fell below {@link #DECAYED} of its peak; it re-warms when it
 * climbs from its lowest point since by more than {@link #RISE} of the peak and to over {@link
 * #TROUGH_FACTOR} times that low. The loss rebounds when the median of its last {@link
 * #LOSS_RECENT} samples stands above the median of the {@link #LOSS_BEFORE} samples before the low
 * by {@link #LOSS_Z} robust deviations and {@link #LOSS_RISE} of that level. A restart resumes from
 * a checkpoint's higher rate: the low starts afresh there.
 */
final class LrRewarmups {
  static final double DECAYED = 0.7;
  static final double RISE = 0.02;
  static final double TROUGH_FACTOR = 1.5;
  static final int LOSS_BEFORE = 20;
  static final int LOSS_RECENT = 2;
  static final double LOSS_RISE = 0.05;
  static final double LOSS_Z = 4;

  private LrRewarmups() {}

  static List<RunEvent> detect(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    if (window.series() == null
        || window.series().of(TrainingRole.LEARNING_RATE).isEmpty()
        || window.series().of(TrainingRole.LOSS).isEmpty()) {
      return found;
    }
    Series lrSeries = window.series().of(TrainingRole.LEARNING_RATE).get(0);
    SeriesReads.Samples lr = SeriesReads.range(lrSeries, window.readFrom(), window.endMs());
    Series lossSeries = window.series().of(TrainingRole.LOSS).get(0);
    SeriesReads.Samples loss = SeriesReads.range(lossSeries, window.readFrom(), window.endMs());
    double peak = Double.NEGATIVE_INFINITY;
    double low = Double.POSITIVE_INFINITY;
    long lowAt = 0;
    int segment = Integer.MIN_VALUE;
    boolean armed = false;
    for (int i = 0; i < lr.size(); i++) {
      double v = lr.values()[i];
      long t = lr.times()[i];
      if (!Double.isFinite(v)) {
        continue;
      }
      int nowSegment = window.segmentAt(t);
      if (nowSegment != segment) {
        segment = nowSegment;
        peak = Math.max(peak, v);
        low = v; // a checkpoint's rate, higher than before the crash, is no re-warm-up
        lowAt = t;
        continue;
      }
      if (v < low) {
        low = v;
        lowAt = t;
        armed |= low < DECAYED * peak; // decayed (again): the next rise may be a re-warm-up
        continue;
      }
      if (!armed) {
        if (v > peak) {
          peak = v; // warming up, or at the top
          low = v;
          lowAt = t;
        }
        continue;
      }
      if (v - low <= RISE * peak || v <= TROUGH_FACTOR * low) {
        continue;
      }
      double[] rebound = rebound(loss, lowAt, t);
      if (rebound == null) {
        continue; // the rate re-warmed; the loss has not answered yet
      }
      armed = false;
      if (t < window.startMs()) {
        continue;
      }
      found.add(
          RunEvents.event(
              "lr_rewarmup",
              lowAt,
              null,
              window.stepAt(lowAt),
              Hosts.of(lrSeries.labels()),
              null,
              "learning rate re-warms from "
                  + LossSpikes.round(low)
                  + " and the loss rises from "
                  + LossSpikes.round(rebound[0])
                  + " to "
                  + LossSpikes.round(rebound[1]),
              RunEvents.labels(lrSeries.labels()),
              RunEvents.evidence(
                  "learning_rate_peak",
                  peak,
                  "learning_rate_low",
                  low,
                  "learning_rate",
                  v,
                  "loss_before",
                  rebound[0],
                  "loss_after",
                  rebound[1],
                  "loss_series",
                  lossSeries.labels().toString())));
      peak = Math.max(peak, v);
      low = v;
      lowAt = t;
    }
    return found;
  }

  /**
   * {@code {before, after}} when the loss rose after {@code from} (up to {@code to}), else null.
   */
  private static double[] rebound(SeriesReads.Samples loss, long from, long to) {
    int low = RunDevices.lowerBound(loss.times(), from);
    int now = RunDevices.lowerBound(loss.times(), to + 1);
    if (low < LOSS_BEFORE || now - low < LOSS_RECENT) {
      return null;
    }
    double before = RobustStats.median(loss.values(), low - LOSS_BEFORE, low);
    double sigma =
        RobustStats.MAD_TO_SIGMA * RobustStats.mad(loss.values(), low - LOSS_BEFORE, low, before);
    double after = RobustStats.median(loss.values(), now - LOSS_RECENT, now);
    boolean rose = after - before > LOSS_Z * sigma && after - before > LOSS_RISE * Math.abs(before);
    return rose ? new double[] {before, after} : null;
  }
}
