package io.flightdeck.training;

import java.util.ArrayList;
import java.util.List;

/**
 * The pace of a run's current segment: the per-interval step rates between consecutive step changes
 * over the rate window (at least the last {@link #MIN_INTERVALS} of them, older if need be), their
 * median and 10th/90th percentiles, and when the step last changed.
 *
 * <p>Rates are measured between step changes rather than between samples, so a gauge scraped more
 * often than the step moves does not read as zero between moves.
 */
record StepProgress(
    double step,
    long lastChangeMs,
    long lastSampleMs,
    Double medianRate,
    Double p10Rate,
    Double p90Rate,
    long medianChangeIntervalMs) {

  static final int MIN_INTERVALS = 3;

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
    List<double[]> intervals = new ArrayList<>(); // {rate, seconds}
    for (int c = changes.size() - 1; c >= 1; c--) {
      int to = changes.get(c);
      int from = changes.get(c - 1);
      boolean inWindow = times[to] >= lastSample - rateWindowMs;
      if (!inWindow && intervals.size() >= MIN_INTERVALS) {
        break;
      }
      double seconds = (times[to] - times[from]) / 1000.0;
      if (seconds > 0) {
        intervals.add(new double[] {(steps[to] - steps[from]) / seconds, seconds});
      }
    }
    if (intervals.isEmpty()) {
      return new StepProgress(steps[last.size() - 1], lastChange, lastSample, null, null, null, 0);
    }
    double[] rates = intervals.stream().mapToDouble(r -> r[0]).sorted().toArray();
    double[] gaps = intervals.stream().mapToDouble(r -> r[1]).sorted().toArray();
    return new StepProgress(
        steps[last.size() - 1],
        lastChange,
        lastSample,
        quantile(rates, 0.5),
        quantile(rates, 0.1),
        quantile(rates, 0.9),
        Math.round(quantile(gaps, 0.5) * 1000));
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
