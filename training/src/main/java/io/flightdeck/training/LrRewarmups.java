package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code lr_rewarmup}: the learning rate rises again after it had decayed, and the loss rises after
 * it. The rate has decayed when it fell below {@link #DECAYED} of its peak; it re-warms when it
 * climbs from the last point of its lowest level since by more than {@link #RISE} of the peak and
 * to over {@link #TROUGH_FACTOR} times that low. A restart resumes from a checkpoint's higher rate:
 * the low starts afresh there.
 *
 * <p>The loss rebounds when the median of the last {@link #LOSS_RECENT} samples of each rank's loss
 * (up to {@link #LOSS_RANKS} ranks, pooled) stands above the loss's level at the low by {@link
 * #LOSS_Z} standard errors of that median and by {@link #LOSS_RISE} of the level. The level at the
 * low is a robust line (Theil–Sen) through the {@link #LOSS_BEFORE} samples of each rank before it,
 * so a loss still falling there is not read as higher than it is, and the noise is the spread about
 * that line. Pooling the ranks makes a rebound that grows slowly (a few hundredths in the first
 * minute) readable in two scrapes; a single rank's noise hid it for four.
 */
final class LrRewarmups {
  static final double DECAYED = 0.7;
  static final double RISE = 0.02;
  static final double TROUGH_FACTOR = 1.5;
  static final int LOSS_BEFORE = 20;
  static final int LOSS_RECENT = 2;
  static final double LOSS_RISE = 0.02;
  static final double LOSS_Z = 4;
  static final int LOSS_RANKS = 8;

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
    List<Series> lossSeries = window.series().of(TrainingRole.LOSS);
    List<SeriesReads.Samples> losses = new ArrayList<>();
    for (Series series : lossSeries.subList(0, Math.min(LOSS_RANKS, lossSeries.size()))) {
      losses.add(SeriesReads.range(series, window.readFrom(), window.endMs()));
    }
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
      if (v <= low) {
        // At a floor the rate holds its low for minutes: the re-warm-up begins where it leaves
        // it, and the loss is compared with its level there.
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
      double[] rebound = rebound(losses, lowAt, t);
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
                  lossSeries.get(0).labels().toString(),
                  "loss_series_count",
                  Math.min(LOSS_RANKS, lossSeries.size()))));
      peak = Math.max(peak, v);
      low = v;
      lowAt = t;
    }
    return found;
  }

  /**
   * {@code {level at the low, after}} when the loss rose after {@code from} (up to {@code to}),
   * else null.
   */
  private static double[] rebound(List<SeriesReads.Samples> losses, long from, long to) {
    List<double[]> before = new ArrayList<>(); // {seconds from `from`, value}
    List<Double> after = new ArrayList<>();
    for (SeriesReads.Samples loss : losses) {
      int low = RunDevices.lowerBound(loss.times(), from);
      int now = RunDevices.lowerBound(loss.times(), to + 1);
      if (low < LOSS_BEFORE || now - low < LOSS_RECENT) {
        continue;
      }
      for (int i = low - LOSS_BEFORE; i < low; i++) {
        if (Double.isFinite(loss.values()[i])) {
          before.add(new double[] {(loss.times()[i] - from) / 1000.0, loss.values()[i]});
        }
      }
      for (int i = now - LOSS_RECENT; i < now; i++) {
        if (Double.isFinite(loss.values()[i])) {
          after.add(loss.values()[i]);
        }
      }
    }
    if (before.size() < LOSS_BEFORE || after.size() < LOSS_RECENT) {
      return null;
    }
    double slope = theilSenSlope(before);
    double[] residualsAtLow = before.stream().mapToDouble(p -> p[1] - slope * p[0]).toArray();
    double level = RobustStats.median(residualsAtLow); // the line's value at `from`
    double sigma =
        RobustStats.MAD_TO_SIGMA * RobustStats.mad(residualsAtLow, 0, residualsAtLow.length, level);
    double recent = RobustStats.median(after.stream().mapToDouble(Double::doubleValue).toArray());
    // The standard error of a median of k samples is about 1.25 σ / √k.
    double error = 1.25 * sigma / Math.sqrt(after.size());
    boolean rose = recent - level > LOSS_Z * error && recent - level > LOSS_RISE * Math.abs(level);
    return rose ? new double[] {level, recent} : null;
  }

  /** The median of the slopes between all pairs of points at different times. */
  private static double theilSenSlope(List<double[]> points) {
    List<Double> slopes = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      for (int j = i + 1; j < points.size(); j++) {
        double dt = points.get(j)[0] - points.get(i)[0];
        if (dt != 0) {
          slopes.add((points.get(j)[1] - points.get(i)[1]) / dt);
        }
      }
    }
    return slopes.isEmpty()
        ? 0
        : RobustStats.median(slopes.stream().mapToDouble(Double::doubleValue).toArray());
  }
}
