package io.flightdeck.bench;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak test of issue 25, against a running server (started by {@code soak-bench.sh}): for a
 * number of minutes, remote write of {@code series} series every {@code interval} (20,000 every 200
 * ms is 100,000 samples/s), a dashboard of five range queries every 10 s, and one hostile query
 * every minute; each minute its resident memory, samples acknowledged, dashboard latency and the
 * hostile query's answer. At the end, that every acknowledged sample is stored (counted on a spread
 * of series) and whether memory stayed flat.
 *
 * <pre>
 * run --url http://127.0.0.1:PORT --pid PID [--minutes 120] [--series 20000] [--interval-ms 200]
 * </pre>
 */
public final class SoakBench {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final String METRIC = "soak_gauge";
  private static final int GROUPS = 50;
  private static final int CHECKED_SERIES = 20;

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String url;
  private final long pid;

  /** What one minute saw. */
  private record Minute(
      int minute,
      long rssKib,
      long anonymousKib,
      long samplesAcked,
      long writeFailures,
      List<Long> dashboardMillis,
      String hostile) {}

  private SoakBench(String url, long pid) {
    this.url = url;
    this.pid = pid;
  }

  public static void main(String[] args) throws Exception {
    Map<String, String> options = new TreeMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    if (args.length == 0 || !"run".equals(args[0]) || !options.containsKey("url")) {
      throw new IllegalArgumentException(
          "usage: run --url URL --pid PID [--minutes N] [--series N] [--interval-ms N]");
    }
    new SoakBench(options.get("url"), Long.parseLong(options.getOrDefault("pid", "-1")))
        .run(
            Integer.parseInt(options.getOrDefault("minutes", "120")),
            Integer.parseInt(options.getOrDefault("series", "20000")),
            Integer.parseInt(options.getOrDefault("interval-ms", "200")));
  }

  private void run(int minutes, int seriesCount, int intervalMs) throws Exception {
    List<byte[]> labels = new ArrayList<>(seriesCount);
    for (int i = 0; i < seriesCount; i++) {
      Map<String, String> l = new TreeMap<>();
      l.put("__name__", METRIC);
      l.put("group", "g" + (i % GROUPS));
      l.put("i", Integer.toString(i));
      l.put("job", "soak");
      labels.add(RemoteWriteEncoder.encodeLabels(l));
    }
    long startMs = System.currentTimeMillis();
    long endMs = startMs + minutes * 60_000L;
    AtomicLong acked = new AtomicLong();
    AtomicLong ackedRequests = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    ConcurrentLinkedQueue<Long> dashboard = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> hostile = new ConcurrentLinkedQueue<>();
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Minute> rows = new ArrayList<>();
    try {
      Future<?> writer =
          pool.submit(() -> write(labels, intervalMs, endMs, acked, ackedRequests, failures));
      Future<?> reader = pool.submit(() -> readLoad(startMs, endMs, dashboard, hostile));
      long lastAcked = 0;
      long lastFailures = 0;
      for (int minute = 1; minute <= minutes; minute++) {
        sleepUntil(startMs + minute * 60_000L);
        List<Long> latencies = drain(dashboard);
        List<String> answers = new ArrayList<>();
        for (String a; (a = hostile.poll()) != null; ) {
          answers.add(a);
        }
        long nowAcked = acked.get();
        long nowFailures = failures.get();
        Minute row =
            new Minute(
                minute,
                ProcessRss.kib(pid),
                ProcessRss.anonymousKib(pid),
                nowAcked - lastAcked,
                nowFailures - lastFailures,
                latencies,
                String.join("; ", answers));
        rows.add(row);
        System.err.printf(
            Locale.ROOT,
            "[soak] minute %d: RSS %d MiB (anonymous %d), %,d samples acked, dashboard median %d ms,"
                + " hostile %s%n",
            minute,
            row.rssKib() / 1024,
            row.anonymousKib() / 1024,
            row.samplesAcked(),
            Latencies.median(latencies),
            row.hostile());
        lastAcked = nowAcked;
        lastFailures = nowFailures;
      }
      writer.get();
      reader.get();
    } finally {
      pool.shutdownNow();
    }
    report(rows, seriesCount, intervalMs, acked.get(), ackedRequests.get(), startMs);
  }

  /** Remote write, one timestamp per request, every {@code intervalMs} until {@code endMs}. */
  private void write(
      List<byte[]> labels,
      int intervalMs,
      long endMs,
      AtomicLong acked,
      AtomicLong ackedRequests,
      AtomicLong failures) {
    double[] values = new double[labels.size()];
    long next = System.currentTimeMillis();
    while (next < endMs) {
      sleepUntil(next);
      long t = next;
      for (int i = 0; i < values.length; i++) {
        values[i] = (i % 97) + Math.sin(t / 60_000.0 + i) * 10;
      }
      byte[] body = RemoteWriteEncoder.encodeRequest(labels, values, t);
      try {
        HttpResponse<Void> response =
            http.send(
                HttpRequest.newBuilder(URI.create(url + "/api/v1/write"))
                    .timeout(TIMEOUT)
                    .header("Content-Encoding", "snappy")
                    .header("Content-Type", "application/x-protobuf")
                    .header("X-Prometheus-Remote-Write-Version", "0.1.0")
                    .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                    .build(),
                HttpResponse.BodyHandlers.discarding());
        if (response.statusCode() / 100 == 2) {
          acked.addAndGet(values.length);
          ackedRequests.incrementAndGet();
        } else {
          failures.incrementAndGet();
        }
      } catch (IOException e) {
        failures.incrementAndGet();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      // A late request is not made up for: the next one keeps the schedule.
      next = Math.max(next + intervalMs, System.currentTimeMillis() / intervalMs * intervalMs);
    }
  }

  /** The dashboard every 10 s, a hostile query every minute, until {@code endMs}. */
  private void readLoad(
      long startMs,
      long endMs,
      ConcurrentLinkedQueue<Long> dashboard,
      ConcurrentLinkedQueue<String> hostile) {
    List<String> panels =
        List.of(
            "sum by (group) (" + METRIC + ")",
            "avg(rate(" + METRIC + "[1m]))",
            "topk(5, max_over_time(" + METRIC + "[1m]))",
            "count(" + METRIC + " > 50)",
            "histogram_quantile(0.9, sum by (le) (rate(flightdeck_http_request_duration_seconds_bucket[1m])))");
    List<String> hostiles =
        List.of(
            "last_over_time(" + METRIC + "[2d])",
            METRIC + "{i=~\"(.*1){25}x\"}",
            "(".repeat(2000) + "1" + ")".repeat(2000),
            "max_over_time(max_over_time(" + METRIC + "[10m:1s])[30m:1s])");
    long nextHostile = startMs + 30_000;
    int hostileIndex = 0;
    while (System.currentTimeMillis() < endMs) {
      long now = System.currentTimeMillis();
      for (String panel : panels) {
        long t0 = System.nanoTime();
        int status = query(panel, (now - 15 * 60_000) / 1000, now / 1000, 15);
        if (status == 200) {
          dashboard.add((System.nanoTime() - t0) / 1_000_000);
        }
      }
      if (now >= nextHostile) {
        String q = hostiles.get(hostileIndex++ % hostiles.size());
        long t0 = System.nanoTime();
        int status = query(q, (now - 60 * 60_000) / 1000, now / 1000, 10);
        hostile.add(status + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        nextHostile += 60_000;
      }
      sleepUntil(now + 10_000);
    }
  }

  private int query(String promql, long startS, long endS, long stepS) {
    String form =
        "query="
            + URLEncoder.encode(promql, StandardCharsets.UTF_8)
            + "&start="
            + startS
            + "&end="
            + endS
            + "&step="
            + stepS;
    try {
      return http.send(
              HttpRequest.newBuilder(URI.create(url + "/api/v1/query_range"))
                  .timeout(TIMEOUT)
                  .header("Content-Type", "application/x-www-form-urlencoded")
                  .POST(HttpRequest.BodyPublishers.ofString(form))
                  .build(),
              HttpResponse.BodyHandlers.discarding())
          .statusCode();
    } catch (IOException e) {
      return 0;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  /** Samples stored of a spread of series, against the requests acknowledged. */
  private String lossCheck(int seriesCount, long ackedRequests, long startMs) throws Exception {
    long missing = 0;
    long now = System.currentTimeMillis();
    long rangeS = (now - startMs) / 1000 + 60;
    for (int k = 0; k < CHECKED_SERIES; k++) {
      int i = (int) ((long) k * seriesCount / CHECKED_SERIES);
      String q = "count_over_time(" + METRIC + "{i=\"" + i + "\"}[" + rangeS + "s])";
      HttpResponse<String> response =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          url
                              + "/api/v1/query?query="
                              + URLEncoder.encode(q, StandardCharsets.UTF_8)
                              + "&time="
                              + now / 1000.0))
                  .timeout(TIMEOUT)
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      String body = response.body();
      int at = body.indexOf("\"value\":[");
      long stored = 0;
      if (at >= 0) {
        int q1 = body.indexOf('"', body.indexOf(',', at) + 1);
        int q2 = body.indexOf('"', q1 + 1);
        stored = Long.parseLong(body.substring(q1 + 1, q2));
      }
      missing += Math.max(0, ackedRequests - stored);
    }
    return String.format(
        Locale.ROOT,
        "%d series checked (every %,d-th): %,d acknowledged samples each, %,d missing in all",
        CHECKED_SERIES,
        seriesCount / CHECKED_SERIES,
        ackedRequests,
        missing);
  }

  private void report(
      List<Minute> rows,
      int seriesCount,
      int intervalMs,
      long acked,
      long ackedRequests,
      long startMs)
      throws Exception {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Load: remote write of %,d series every %d ms (%,d samples/s offered); a dashboard of"
                + " five range queries over 15 min every 10 s; a hostile query every minute (a"
                + " 2-day window, a backtracking regex, 2,000 parentheses, nested subqueries, in"
                + " turn).%n%n",
            seriesCount,
            intervalMs,
            seriesCount * 1000L / intervalMs));
    out.append(
        "| Minute | RSS, MiB | anonymous | Samples acked | Samples/s | Write failures | Dashboard"
            + " median / max ms | Hostile query |\n");
    out.append("|---:|---:|---:|---:|---:|---:|---|---|\n");
    for (Minute m : rows) {
      long max = m.dashboardMillis().stream().mapToLong(Long::longValue).max().orElse(-1);
      out.append(
          String.format(
              Locale.ROOT,
              "| %d | %,d | %,d | %,d | %,d | %d | %d / %d | %s |%n",
              m.minute(),
              m.rssKib() / 1024,
              m.anonymousKib() / 1024,
              m.samplesAcked(),
              m.samplesAcked() / 60,
              m.writeFailures(),
              Latencies.median(m.dashboardMillis()),
              max,
              m.hostile().isEmpty() ? "–" : m.hostile()));
    }
    List<Minute> first = rows.subList(0, Math.max(1, rows.size() / 2));
    List<Minute> second = rows.subList(rows.size() / 2, rows.size());
    out.append(
        String.format(
            Locale.ROOT,
            "%nAcknowledged: %,d samples in %,d requests. Loss check: %s. Peak RSS, first half:"
                + " %,d MiB (anonymous %,d); second half: %,d MiB (anonymous %,d).%n",
            acked,
            ackedRequests,
            lossCheck(seriesCount, ackedRequests, startMs),
            peak(first, Minute::rssKib) / 1024,
            peak(first, Minute::anonymousKib) / 1024,
            peak(second, Minute::rssKib) / 1024,
            peak(second, Minute::anonymousKib) / 1024));
    System.out.print(out);
  }

  private static long peak(List<Minute> rows, java.util.function.ToLongFunction<Minute> kib) {
    return rows.stream().mapToLong(kib).max().orElse(0);
  }

  private static List<Long> drain(ConcurrentLinkedQueue<Long> queue) {
    List<Long> out = new ArrayList<>();
    for (Long v; (v = queue.poll()) != null; ) {
      out.add(v);
    }
    return out;
  }

  private static void sleepUntil(long epochMs) {
    long wait = epochMs - System.currentTimeMillis();
    if (wait <= 0) {
      return;
    }
    try {
      Thread.sleep(wait);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
