package io.flightdeck.app;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * PromQL queries for the differential test, generated from templates over the functions,
 * aggregations, operators, modifiers and subqueries a training-monitoring dashboard uses. Only what
 * Prometheus 2.42 and 3.x answer alike: no experimental functions, no {@code holt_winters} (renamed
 * in 3.x), no native histograms.
 */
final class DifferentialQueries {
  private static final List<String> GAUGES =
      List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "train_loss");
  private static final String COUNTER = "node_network_receive_bytes_total";
  private static final List<String> RANGES = List.of("1m", "5m", "17m");

  private DifferentialQueries() {}

  /**
   * The queries; {@code atSeconds} is a time inside the data for {@code @} modifiers, written as
   * Unix seconds.
   */
  static List<String> all(long atSeconds) {
    Set<String> q = new LinkedHashSet<>();
    List<String> selectors = new ArrayList<>(GAUGES);
    selectors.add("DCGM_FI_DEV_GPU_UTIL{Hostname=\"node-b\"}");
    selectors.add("DCGM_FI_DEV_GPU_UTIL{gpu=~\"[02]\"}");
    selectors.add("{__name__=~\"DCGM_FI_DEV_.*\", gpu!=\"3\"}");
    for (String s : selectors) {
      q.add(s);
      q.add(s + " offset 5m");
      q.add(s + " offset -2m");
      q.add(s + " @ " + atSeconds);
      q.add("-" + s);
      q.add(s + " * 2 - 1");
      q.add(s + " > 50");
      q.add(s + " < bool 50");
      q.add("timestamp(" + s + ")");
      for (String f : List.of("abs", "ceil", "floor", "sqrt", "ln", "exp", "sgn", "round")) {
        q.add(f + "(" + s + ")");
      }
    }
    for (String g : GAUGES) {
      for (String r : RANGES) {
        for (String f :
            List.of(
                "avg_over_time",
                "min_over_time",
                "max_over_time",
                "sum_over_time",
                "count_over_time",
                "last_over_time",
                "stddev_over_time",
                "stdvar_over_time",
                "changes",
                "deriv",
                "delta",
                "idelta",
                "present_over_time")) {
          q.add(f + "(" + g + "[" + r + "])");
        }
        q.add("quantile_over_time(0.9, " + g + "[" + r + "])");
        q.add("predict_linear(" + g + "[" + r + "], 600)");
        q.add("absent_over_time(" + g + "{run=\"a\"}[" + r + "])");
      }
    }
    for (String r : RANGES) {
      for (String f : List.of("rate", "irate", "increase", "resets", "changes")) {
        q.add(f + "(" + COUNTER + "[" + r + "])");
        q.add("sum by (instance) (" + f + "(" + COUNTER + "[" + r + "] offset 3m))");
      }
    }
    for (String g : List.of("DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED")) {
      for (String agg : List.of("sum", "avg", "min", "max", "count", "stddev", "stdvar", "group")) {
        q.add(agg + "(" + g + ")");
        q.add(agg + " by (Hostname) (" + g + ")");
        q.add(agg + " without (gpu, UUID) (" + g + ")");
      }
      for (String k : List.of("1", "3")) {
        q.add("topk(" + k + ", " + g + ")");
        q.add("bottomk(" + k + ", " + g + ")");
        q.add("topk by (Hostname) (" + k + ", " + g + ")");
      }
      for (String phi : List.of("0", "0.5", "0.9", "1")) {
        q.add("quantile(" + phi + ", " + g + ")");
        q.add("quantile by (Hostname) (" + phi + ", " + g + ")");
      }
      q.add("count_values(\"value\", round(" + g + " / 10))");
      q.add("avg_over_time(" + g + "[10m]) < 15");
      q.add("sum by (Hostname) (avg_over_time(" + g + "[5m]))");
    }
    q.add("DCGM_FI_DEV_FB_USED / on (Hostname, gpu) DCGM_FI_DEV_GPU_UTIL");
    q.add("DCGM_FI_DEV_FB_USED / ignoring (__name__) DCGM_FI_DEV_GPU_UTIL");
    q.add("DCGM_FI_DEV_GPU_UTIL > on (Hostname, gpu, UUID) DCGM_FI_DEV_FB_USED / 1000");
    q.add(
        "DCGM_FI_DEV_GPU_UTIL / on (Hostname) group_left sum by (Hostname) (DCGM_FI_DEV_GPU_UTIL)");
    q.add(
        "sum by (Hostname) (DCGM_FI_DEV_GPU_UTIL) / on (Hostname) group_right DCGM_FI_DEV_FB_USED");
    q.add("DCGM_FI_DEV_GPU_UTIL and on (Hostname, gpu) DCGM_FI_DEV_FB_USED > 40000");
    q.add("DCGM_FI_DEV_GPU_UTIL unless on (Hostname, gpu) DCGM_FI_DEV_FB_USED > 40000");
    q.add("DCGM_FI_DEV_GPU_UTIL > 70 or DCGM_FI_DEV_FB_USED > 60000");
    q.add("DCGM_FI_DEV_GPU_UTIL{gpu=\"0\"} or on () vector(0)");
    q.add("increase(DCGM_FI_DEV_XID_ERRORS[1m]) > 0");
    q.add("DCGM_FI_DEV_XID_ERRORS != 0");
    q.add("max by (Hostname) (DCGM_FI_DEV_XID_ERRORS)");
    for (String r : List.of("5m", "10m")) {
      q.add("histogram_quantile(0.9, rate(request_duration_seconds_bucket[" + r + "]))");
      q.add(
          "histogram_quantile(0.5, sum by (le) (rate(request_duration_seconds_bucket["
              + r
              + "])))");
      q.add(
          "histogram_quantile(0.99, sum by (le, job) (increase(request_duration_seconds_bucket["
              + r
              + "])))");
    }
    for (String sub : List.of("[10m:1m]", "[10m:30s]", "[15m:]", "[5m:20s] offset 2m")) {
      q.add("max_over_time(rate(" + COUNTER + "[1m])" + sub + ")");
      q.add("avg_over_time(DCGM_FI_DEV_GPU_UTIL" + sub + ")");
      q.add("min_over_time(sum by (Hostname) (DCGM_FI_DEV_GPU_UTIL)" + sub + ")");
      q.add("deriv(train_loss" + sub + ")");
    }
    q.add("label_replace(DCGM_FI_DEV_GPU_UTIL, \"host\", \"$1\", \"Hostname\", \"node-(.*)\")");
    q.add("label_join(DCGM_FI_DEV_GPU_UTIL, \"id\", \"/\", \"Hostname\", \"gpu\")");
    q.add("clamp(DCGM_FI_DEV_GPU_UTIL, 20, 80)");
    q.add("clamp_min(DCGM_FI_DEV_GPU_UTIL, 50)");
    q.add("clamp_max(DCGM_FI_DEV_GPU_UTIL, 50)");
    q.add("round(DCGM_FI_DEV_FB_USED, 100)");
    q.add("scalar(sum(DCGM_FI_DEV_GPU_UTIL))");
    q.add("sum(DCGM_FI_DEV_GPU_UTIL) / scalar(count(DCGM_FI_DEV_GPU_UTIL))");
    q.add("time() - timestamp(train_loss)");
    q.add("vector(1) + 1");
    q.add("absent(nonexistent_metric{job=\"x\"})");
    q.add("absent(train_loss)");
    q.add("1 + 2 * 3 ^ 2 % 5");
    q.add("hour(timestamp(train_loss{run=\"b\"}))");
    q.add("minute()");
    q.add("day_of_week()");
    // Answers whose order PromQL defines: compared in order.
    q.add("sort_desc(DCGM_FI_DEV_GPU_UTIL)");
    q.add("sort(DCGM_FI_DEV_FB_USED)");
    q.add("sort_desc(avg by (Hostname) (DCGM_FI_DEV_GPU_UTIL))");
    q.add("sort(rate(" + COUNTER + "[5m]))");
    q.add("sort_desc(topk(3, DCGM_FI_DEV_FB_USED))");
    q.add("sort(bottomk(3, DCGM_FI_DEV_GPU_UTIL))");
    q.add("sum(rate(" + COUNTER + "[5m])) * 8");
    return new ArrayList<>(q);
  }
}
