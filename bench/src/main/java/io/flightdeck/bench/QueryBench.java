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
 * The dashboard query set of the query benchmark, run against the Prometheus query API of one or
 * more peers as Grafana sends it (POST forms). First the whole dashboard refreshes, every query on
 * every peer in turn, for {@code dashboard-warmup-seconds}; then each query runs {@code warmup}
 * more times on every peer and {@code repeat} times measured; one line per query and peer gives the
 * median latency:
 *
 * <pre>
 * run --peers NAME=BASE[,NAME=BASE...] --start-ms T --end-ms T [--repeat 7] [--warmup 10]
 *     [--dashboard-warmup-seconds 0] [--only NAME,NAME]
 * </pre>
 *
 * <p>The warm-up stands for a long-running server that has been answering the dashboard: the JVM
 * compiles a code path only after it ran hot, and its compiler threads then compete with the
 * queries for the cores (Go programs have nothing to warm). Ten warm-up runs of one query at a time
 * left Flightdeck's JIT compiling through the measured runs on 2 cores: 225 compilations during 500
 * queries after 2,000 of one query, and the dashboard's second pass 30% faster than its first.
 *
 * <p>The peers take turns, one request each, and the peer that goes first rotates: the machine's
 * speed drifts by up to a factor of two over minutes on a shared VM, and peers measured one after
 * another would carry that drift into their ratios. {@code --only} runs a subset by name, to
 * profile one query alone.
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

  /** A server answering the query API, by the name the results are reported under. */
  record Peer(String name, URI base) {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0 || !args[0].equals("run")) {
      throw new IllegalArgumentException(
          "usage: run --peers NAME=BASE[,NAME=BASE...] --start-ms T --end-ms T [--repeat 7]"
              + " [--warmup 10] [--dashboard-warmup-seconds 0] [--only NAME,NAME]");
    }
    Map<String, String> options = new LinkedHashMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    List<Peer> peers = new ArrayList<>();
    for (String peer : options.get("peers").split(",")) {
      String[] nameAndBase = peer.split("=", 2);
      peers.add(new Peer(nameAndBase[0], URI.create(nameAndBase[1])));
    }
    long startMs = Long.parseLong(options.get("start-ms"));
    long endMs = Long.parseLong(options.get("end-ms"));
    int repeat = Integer.parseInt(options.getOrDefault("repeat", "7"));
    int warmup = Integer.parseInt(options.getOrDefault("warmup", "10"));
    Duration dashboardWarmup =
        Duration.ofSeconds(Long.parseLong(options.getOrDefault("dashboard-warmup-seconds", "0")));
    HttpClient client =
        HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10))
            .build();
    List<String> only =
        options.containsKey("only") ? List.of(options.get("only").split(",")) : List.of();
    List<BenchQuery> queries =
        dashboard().stream().filter(q -> only.isEmpty() || only.contains(q.name())).toList();
    refreshDashboard(client, peers, queries, startMs, endMs, dashboardWarmup);
    for (BenchQuery query : queries) {
      List<HttpRequest> requests = new ArrayList<>();
      int[] bodyLengths = new int[peers.size()];
      for (int p = 0; p < peers.size(); p++) {
        requests.add(request(peers.get(p).base(), query, startMs, endMs));
        bodyLengths[p] = send(client, requests.get(p), query).length();
      }
      for (int i = 1; i < warmup; i++) {
        for (HttpRequest request : requests) {
          send(client, request, query);
        }
      }
      long[][] nanos = new long[peers.size()][repeat];
      for (int i = 0; i < repeat; i++) {
        for (int turn = 0; turn < peers.size(); turn++) {
          int p = (i + turn) % peers.size();
          long t0 = System.nanoTime();
          send(client, requests.get(p), query);
          nanos[p][i] = System.nanoTime() - t0;
        }
      }
      for (int p = 0; p < peers.size(); p++) {
        Arrays.sort(nanos[p]);
        System.out.printf(
            Locale.ROOT,
            "query=%s peer=%s median_ms=%.2f min_ms=%.2f bytes=%d%n",
            query.name(),
            peers.get(p).name(),
            nanos[p][repeat / 2] / 1e6,
            nanos[p][0] / 1e6,
            bodyLengths[p]);
      }
    }
  }

  /** Every query on every peer in turn, round after round, until {@code duration} has passed. */
  private static void refreshDashboard(
      HttpClient client,
      List<Peer> peers,
      List<BenchQuery> queries,
      long startMs,
      long endMs,
      Duration duration)
      throws Exception {
    long deadline = System.nanoTime() + duration.toNanos();
    int rounds = 0;
    while (System.nanoTime() < deadline) {
      for (BenchQuery query : queries) {
        for (Peer peer : peers) {
          send(client, request(peer.base(), query, startMs, endMs), query);
        }
      }
      rounds++;
    }
    if (rounds > 0) {
      System.err.printf(Locale.ROOT, "dashboard warm-up: %d rounds in %s%n", rounds, duration);
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
