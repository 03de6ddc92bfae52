package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Grafana's $__interval, step and $__rate_interval for a Prometheus query (cockpit-research A3).
 */
class QueryTimingTest {
  private static final long HOUR = 3_600_000L;

  @ParameterizedTest(name = "range {0} ms, {1} points, panel {2}, target {3}, factor {4}")
  @CsvSource(
      nullValues = "-",
      value = {
        // range ms, maxDataPoints, panel min, target min step, factor, scrape, $__interval, step s,
        // $__rate_interval
        "3600000,    1000,   '', '',    1, 15s,   15s,   15,    60s",
        "86400000,   1000,   '', '',    1, 15s,   1m,    60,    75s",
        "604800000,  1000,   '', '',    1, 15s,   10m,   600,   615s",
        "2592000000, 100,    '', '',    1, 15s,   6h,    21600, 21615s",
        // the panel's min interval floors $__interval
        "3600000,    1000,   1m, '',    1, 15s,   1m,    60,    75s",
        // the target's min step raises the step and is the scrape interval of $__rate_interval
        "3600000,    1000,   '', 30s,   1, 15s,   30s,   30,    120s",
        // the legacy interval factor multiplies the step
        "3600000,    1000,   '', '',    2, 15s,   30s,   30,    60s",
        // Prometheus's 11,000-point limit: range / 11000, rounded up above 1 s
        "31536000000, 100000, '', '',   1, 15s,   2867s, 2867,  2882s",
        // a short range with a fast scrape
        "10000,      1000,   '', '',    1, 100ms, 100ms, 0.1,   0.4s",
      })
  void stepMath(
      long rangeMs,
      int maxDataPoints,
      String panelMin,
      String targetMin,
      int factor,
      String scrape,
      String interval,
      double step,
      String rateInterval) {
    QueryTiming timing =
        QueryTiming.compute(0, rangeMs, maxDataPoints, panelMin, targetMin, factor, scrape);
    assertThat(timing.interval()).isEqualTo(interval);
    assertThat(timing.stepSeconds()).isEqualTo(step);
    assertThat(timing.rateInterval()).isEqualTo(rateInterval);
  }

  @org.junit.jupiter.api.Test
  void theRangeIsAlignedToTheStep() {
    long from = 1_000_000_123L;
    QueryTiming timing = QueryTiming.compute(from, from + HOUR, 1000, "", "", 1, "15s");
    assertThat(timing.startSeconds()).isEqualTo(999_990);
    assertThat(timing.endSeconds()).isEqualTo(1_003_590);
    assertThat(timing.builtIns().get("__range").values()).containsExactly("3600s");
    assertThat(timing.builtIns().get("__range_ms").values()).containsExactly("3600000");
    assertThat(timing.builtIns().get("__from").values()).containsExactly("1000000123");
  }

  @ParameterizedTest(name = "{0} ms rounds to {1} ms")
  @CsvSource({
    "0, 1",
    "14, 10",
    "16, 20",
    "40, 50",
    "100, 100",
    "200, 200",
    "600, 500",
    "1000, 1000",
    "2000, 2000",
    "4000, 5000",
    "10000, 10000",
    "15000, 15000",
    "20000, 20000",
    "30000, 30000",
    "60000, 60000",
    "100000, 120000",
    "300000, 300000",
    "600000, 600000",
    "900000, 900000",
    "1200000, 1200000",
    "2000000, 1800000",
    "4000000, 3600000",
    "8000000, 7200000",
    "12000000, 10800000",
    "20000000, 21600000",
    "40000000, 43200000",
    "100000000, 86400000",
    "1000000000, 604800000",
    "3000000000, 2592000000",
    "5000000000, 31536000000",
  })
  void roundInterval(double raw, long rounded) {
    assertThat(GrafanaIntervals.roundInterval(raw)).isEqualTo(rounded);
  }

  @ParameterizedTest(name = "{0} s is {1}")
  @CsvSource({
    "3600, 1h",
    "86400, 1d",
    "604800, 7d",
    "2592000, 30d",
    "31536000, 1y",
    "90, 1m",
    "15, 15s",
    "0.5, 500ms",
    "0.0001, less than a millisecond",
  })
  void secondsToHms(double seconds, String text) {
    assertThat(GrafanaIntervals.secondsToHms(seconds)).isEqualTo(text);
  }
}
