package io.flightdeck.bench;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The dashboard query set of the query benchmark, run against one peer's Prometheus query API as
 * Grafana sends it (POST forms). Each query first runs {@code warmup} times, as a dashboard
 * refreshing on a long-running server would have run it (the JVM compiles a query's code path on
 * first use; Go programs have nothing to warm), then {@code repeat} times; one line per query gives
 * the median latency:
 *
 * <pre>
 * run --url BASE --start-ms T --end-ms T [--repeat 7] [--warmup 10] [--only NAME,NAME]
 * </pre>
 *
 * <p>{@code --only} runs a subset by name, to profile one query alone.
 */
public final class QueryBench {
  private static final Duration TIMEOUT = Duration.ofMinutes(5);

  /** One dashboard query: instant at the end of the data, or a range with a step. */
  record BenchQuery(String name, String promql, Duration range, Duration step) {
    boolean instant() {
      return range == null;
    }
  }

  /** The queries a training-monitoring dashboard issues, over the storage benchmark's data. */
  static List<BenchQuery> dashboard() {
    Duration sixHours = Duration.ofHours(6);
    return List.of(
        new BenchQuery("gpu_util_6h", "DCGM_FI_DEV_GPU_UTIL", sixHours, Duration.ofSeconds(30)),
        new BenchQuery(
            "sum_by_host_6h",
            "sum by (Hostname) (DCGM_FI_DEV_GPU_UTIL)",
            sixHours,
            Duration.ofSeconds(30)),
        new BenchQuery(
            "net_rate_6h",
            "sum by (instance) (rate(node_network_receive_bytes_total[5m]))",
            sixHours,
            Duration.ofSeconds(30)),
        new BenchQuery("idle_gpus", "avg_over_time(DCGM_FI_DEV_GPU_UTIL[10m]) < 15", null, null),
        new BenchQuery(
            "temp_p95_1h", "quantile_over_time(0.95, DCGM_FI_DEV_GPU_TEMP[1h])", null, null),
        new BenchQuery(
            "top_power",
            "topk(5, avg_over_time(DCGM_FI_DEV_POWER_USAGE[5m]))",
            Duration.ofHours(1),
            Duration.ofSeconds(15)),
        new BenchQuery("loss_15s", "llm_train_loss{rank=\"0\"}", sixHours, Duration.ofSeconds(15)),
        new BenchQuery("loss_60s", "llm_train_loss{rank=\"0\"}", sixHours, Duration.ofSeconds(60)),
        new BenchQuery(
            "xid_alert",
            "increase(DCGM_FI_DEV_XID_ERRORS[1m]) > 0",
            sixHours,
            Duration.ofSeconds(60)));
  }

  private QueryBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !args[0].equals("run")) {
      throw new IllegalArgumentException(
          "usage: run --url BASE --start-ms T --end-ms T [--repeat 7] [--warmup 10]"
              + " [--only NAME,NAME]");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    URI base = URI.create(options.get("url"));
    long startMs = Long.parseLong(options.get("start-ms"));
    long endMs = Long.parseLong(options.get("end-ms"));
    int repeat = Integer.parseInt(options.getOrDefault("repeat", "7"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "10"));
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    List<String> only =
        options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();
    for (BenchQuery query : dashboard()) {
      if (!only.isEmpty() && !only.contains(query.name())) {
        continue;
      }
      HttpRequest request = request(base, query, startMs, endMs);
      String body = send(client, request, query);
      for (int i = 1; i < warmup; i++) {
        send(client, request, query);
      }
      long[] nanos = new long[repeat];
      for (int i = 0; i < repeat; i++) {
        long t0 = System.nanoTime();
        send(client, request, query);
        nanos[i] = System.nanoTime() - t0;
      }
      Arrays.sort(nanos);
      System.out.printf(
          Locale.ROOT,
          "query=%s median_ms=%.2f min_ms=%.2f bytes=%d%n",
          query.name(),
          nanos[repeat / 2] / 1e6,
          nanos[0] / 1e6,
          body.length());
    }
  }

  private static HttpRequest request(URI base, BenchQuery query, long startMs, long endMs) {
    List<String> form = new ArrayList<>();
    form.add("query=" + URLEncoder.encode(query.promql(), StandardCharsets.UTF_8));
    String path;
    if (query.instant()) {
      path = "/api/v1/query";
      form.add("time=" + seconds(endMs));
    } else {
      path = "/api/v1/query_range";
      long from = Math.max(startMs, endMs - query.range().toMillis());
      form.add("start=" + seconds(from));
      form.add("end=" + seconds(endMs));
      form.add("step=" + query.step().toSeconds());
    }
    return HttpRequest.newBuilder(base.resolve(path))
        .timeout(TIMEOUT)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(String.join("&", form)))
        .build();
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.3f", ms / 1000.0);
  }

  private static String send(HttpClient client, HttpRequest request, BenchQuery query)
      throws Exception {
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200 || !response.body().contains("\"success\"")) {
      throw new IllegalStateException(
          query.name() + " failed with " + response.statusCode() + ": " + response.body());
    }
    return response.body();
  }
}
