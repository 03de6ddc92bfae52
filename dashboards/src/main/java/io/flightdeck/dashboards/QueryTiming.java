package io.flightdeck.dashboards;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The interval, step and aligned range Grafana's Prometheus source uses for one query of a panel,
 * and the built-in variables they define ({@code $__interval}, {@code $__rate_interval}, {@code
 * $__range}...):
 *
 * <ol>
 *   <li>{@code $__interval} = the range over {@code maxDataPoints}, rounded to a nice interval,
 *       floored at the panel's min interval, else the scrape interval;
 *   <li>step = max($__interval × intervalFactor, the target's min step (else $__interval), range /
 *       11000, rounded up when above 1 s); when that differs, {@code $__interval} becomes the step;
 *   <li>{@code $__rate_interval} = max(step + scrape, 4 × scrape), the scrape interval being the
 *       target's min step if set;
 *   <li>start and end are aligned down to a multiple of the step.
 * </ol>
 *
 * Times are epoch ms; the range is [{@code fromMs}, {@code toMs}].
 */
public record QueryTiming(
    long fromMs,
    long toMs,
    String interval,
    double intervalMs,
    double stepSeconds,
    String rateInterval,
    double startSeconds,
    double endSeconds) {

  /**
   * @param maxDataPoints the panel's, else about its width in pixels
   * @param panelMinInterval the panel's {@code interval}, or "" for none
   * @param targetMinStep the query's {@code interval} (min step), or "" for none
   * @param scrapeInterval the data source's scrape interval (ours: the configured one)
   */
  public static QueryTiming compute(
      long fromMs,
      long toMs,
      int maxDataPoints,
      String panelMinInterval,
      String targetMinStep,
      int intervalFactor,
      String scrapeInterval) {
    if (toMs < fromMs) {
      throw new IllegalArgumentException("the range ends before it starts");
    }
    if (maxDataPoints <= 0) {
      throw new IllegalArgumentException("maxDataPoints must be positive");
    }
    String lowLimit = panelMinInterval.isEmpty() ? scrapeInterval : panelMinInterval;
    double intervalMs =
        Math.max(
            GrafanaIntervals.roundInterval((double) (toMs - fromMs) / maxDataPoints),
            GrafanaIntervals.intervalToMs(lowLimit));
    String intervalText = GrafanaIntervals.secondsToHms(intervalMs / 1000);

    long start = (long) Math.ceil(fromMs / 1000.0);
    long end = (long) Math.ceil(toMs / 1000.0);
    double rangeSeconds = Math.ceil(end - start);
    double interval = intervalMs / 1000;
    double minInterval =
        GrafanaIntervals.intervalToSeconds(targetMinStep.isEmpty() ? intervalText : targetMinStep);
    double scrape =
        GrafanaIntervals.intervalToSeconds(
            targetMinStep.isEmpty() ? scrapeInterval : targetMinStep);
    if (scrape == 0) {
      scrape = 15;
    }
    double safeInterval = rangeSeconds / 11000;
    if (safeInterval > 1) {
      safeInterval = Math.ceil(safeInterval);
    }
    double step =
        Math.max(interval * Math.max(1, intervalFactor), Math.max(minInterval, safeInterval));
    if (step != interval) {
      intervalText = GrafanaIntervals.jsNumber(step) + "s";
      intervalMs = step * 1000;
    }
    String rate = GrafanaIntervals.jsNumber(Math.max(step + scrape, 4 * scrape)) + "s";
    double alignedStart = Math.floor(start / step) * step;
    double alignedEnd = Math.floor(end / step) * step;
    return new QueryTiming(
        fromMs, toMs, intervalText, intervalMs, step, rate, alignedStart, alignedEnd);
  }

  /** {@code $__interval}, {@code $__interval_ms}, {@code $__rate_interval}, range and times. */
  public Map<String, VariableValue> builtIns() {
    long rangeMs = toMs - fromMs;
    long rangeS = Math.round(rangeMs / 1000.0);
    Map<String, VariableValue> values = new LinkedHashMap<>();
    values.put("__interval", VariableValue.single(interval));
    values.put("__interval_ms", VariableValue.single(GrafanaIntervals.jsNumber(intervalMs)));
    values.put("__rate_interval", VariableValue.single(rateInterval));
    values.put("__range", VariableValue.single(rangeS + "s"));
    values.put("__range_s", VariableValue.single(Long.toString(rangeS)));
    values.put("__range_ms", VariableValue.single(Long.toString(rangeMs)));
    values.put("__from", VariableValue.single(Long.toString(fromMs)));
    values.put("__to", VariableValue.single(Long.toString(toMs)));
    return values;
  }
}
