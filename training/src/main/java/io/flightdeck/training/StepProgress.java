package io.flightdeck.training;

import java.util.ArrayList;
import java.util.List;

/**
 * The pace of a run's current segment: the per-interval step rates between consecutive step changes
 * over the rate window (at least the last {@link #MIN_INTERVALS} of them, older if need be), the
 * window's rate, their 10th/90th percentiles, and when the step last changed.
 *
 * <p>Rates are measured between step changes rather than between samples, so a gauge scraped more
 * often than the step moves does not read as zero between moves. The window's rate is the steps
 * advanced over the time taken, leaving out pauses (an interval over {@link #PAUSE_FACTOR} times
 * the usual one: a stall, a checkpoint save); not the median of the per-interval rates, which is
 * biased when few steps fall between scrapes (6 s steps scraped every 20 s advance 3 or 4 a scrape:
 * the median reads 3, 10% slow).
 *
 * @param rate steps/s over the window, pauses left out
 * @param trend how steady the pace is over the last {@link #TREND_WINDOWS} rate windows ({@link
 *     PaceTrend}); null when they have too few step changes to tell
 */
record StepProgress(
    double step,
    long lastChangeMs,
    long lastSampleMs,
    Double rate,
    Double p10Rate,
    Double p90Rate,
    long medianChangeIntervalMs,
    PaceTrend trend) {

  static final int MIN_INTERVALS = 3;

  /**
   * The trend is fitted over this many rate windows (as much of it as the segment has): a drift
   * must hold for longer than the noise of a few minutes does.
   */
  static final int TREND_WINDOWS = 3;

  /** An interval longer than this many usual ones is a pause, left out of the window's rate. */
  static final int PAUSE_FACTOR = 3;

  /** Null when the map is empty. */
  static StepProgress of(StepMap map, long rateWindowMs) {
    if (map.segments().isEmpty()) {
      return null;
    }
    StepMap.Segment last = map.segments().get(map.segments().size() - 1);
    long[] times = last.times();
    double[] steps = last.steps();
    // The change points: the first point at each step value.
    List<Integer> changes = new ArrayList<>();
    for (int i = 0; i < last.size(); i++) {
      if (i == 0 || steps[i] != steps[i - 1]) {
        changes.add(i);
      }
    }
    long lastSample = times[last.size() - 1];
    long lastChange = times[changes.get(changes.size() - 1)];
    List<double[]> intervals = new ArrayList<>(); // {rate, seconds, end ms}: the rate window
    List<double[]> longer = new ArrayList<>(); // the trend window
    for (int c = changes.size() - 1; c >= 1; c--) {
      int to = changes.get(c);
      int from = changes.get(c - 1);
      boolean inWindow = times[to] >= lastSample - rateWindowMs;
      boolean inTrendWindow = times[to] >= lastSample - TREND_WINDOWS * rateWindowMs;
      if (!inTrendWindow && intervals.size() >= MIN_INTERVALS) {
        break;
      }
      double seconds = (times[to] - times[from]) / 1000.0;
      if (seconds > 0) {
        double[] interval = {(steps[to] - steps[from]) / seconds, seconds, times[to]};
        longer.add(interval);
        if (inWindow || intervals.size() < MIN_INTERVALS) {
          intervals.add(interval);
        }
      }
    }
    if (intervals.isEmpty()) {
      return new StepProgress(
          steps[last.size() - 1], lastChange, lastSample, null, null, null, 0, null);
    }
    double[] rates = intervals.stream().mapToDouble(r -> r[0]).sorted().toArray();
    double[] gaps = intervals.stream().mapToDouble(r -> r[1]).sorted().toArray();
    long medianGapMs = Math.round(quantile(gaps, 0.5) * 1000);
    double advanced = 0;
    double taken = 0;
    for (double[] interval : intervals) {
      if (interval[1] * 1000 <= PAUSE_FACTOR * medianGapMs) {
        advanced += interval[0] * interval[1];
        taken += interval[1];
      }
    }
    double[] oldest = longer.get(longer.size() - 1);
    PaceTrend trend =
        PaceTrend.of(
            longer.stream().mapToDouble(r -> r[0]).toArray(),
            longer.stream().mapToDouble(r -> r[1]).toArray(),
            longer.stream().mapToLong(r -> (long) r[2]).toArray(),
            (long) oldest[2] - Math.round(oldest[1] * 1000),
            lastChange,
            medianGapMs);
    return new StepProgress(
        steps[last.size() - 1],
        lastChange,
        lastSample,
        advanced / taken,
        quantile(rates, 0.1),
        quantile(rates, 0.9),
        medianGapMs,
        trend);
  }

  boolean drifting() {
    return trend != null && trend.drifting();
  }

  /** The recent pace: a drifting pace's level now, else the window's rate. */
  Double pace() {
    return drifting() ? Double.valueOf(trend.level()) : rate;
  }

  /** The fast end of the band: the 90th percentile rate, or a quickening pace's level if faster. */
  Double fastRate() {
    return !drifting() || p90Rate == null ? p90Rate : Math.max(p90Rate, trend.level());
  }

  /**
   * The slow end of the band: the 10th percentile rate, or a slowing pace's drift going on for one
   * window more if slower.
   */
  Double slowRate() {
    return !drifting() || p10Rate == null ? p10Rate : Math.min(p10Rate, trend.onceMore());
  }

  /** Linear interpolation between closest ranks, on sorted values. */
  static double quantile(double[] sorted, double q) {
    if (sorted.length == 1) {
      return sorted[0];
    }
    double position = q * (sorted.length - 1);
    int below = (int) Math.floor(position);
    int above = Math.min(sorted.length - 1, below + 1);
    double fraction = position - below;
    return sorted[below] + fraction * (sorted[above] - sorted[below]);
  }
}
