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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The hostile-query suite of issue 25, against a running server (started by {@code
 * hostile-bench.sh} with a small heap): it loads wide and long-valued series, then sends each
 * hostile request alone while a normal query runs beside it every 200 ms, and reports per case the
 * status and message, the time to answer, the server's peak resident memory during the case (from
 * /proc), and the normal query's latency next to its baseline.
 *
 * <pre>
 * run --url http://127.0.0.1:PORT --pid PID [--series 20000]
 * </pre>
 */
public final class HostileBench {
  private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(3);
  private static final int LONG_VALUE =
      4000; // the store refuses label values over 4,096 characters
  private static final long PROBE_EVERY_MS = 200;
  private static final String PROBE = "sum(normal_gauge)";

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final String url;
  private final long pid;

  private HostileBench(String url, long pid) {
    this.url = url;
    this.pid = pid;
  }

  /** One hostile request: a query by GET or POST form, instant or range. */
  private record Case(String name, String path, String form, boolean get) {}

  private record Outcome(
      Case hostile,
      int status,
      String message,
      long millis,
      long peakRssKib,
      List<Long> probeMillis,
      int probeFailures) {}

  public static void main(String[] args) throws Exception {
    String url = null;
    long pid = -1;
    int series = 20_000;
    for (int i = 1; i + 1 < args.length; i += 2) {
      switch (args[i]) {
        case "--url" -> url = args[i + 1];
        case "--pid" -> pid = Long.parseLong(args[i + 1]);
        case "--series" -> series = Integer.parseInt(args[i + 1]);
        default -> throw new IllegalArgumentException("unknown option " + args[i]);
      }
    }
    if (args.length == 0 || !"run".equals(args[0]) || url == null || pid < 0) {
      throw new IllegalArgumentException("usage: run --url URL --pid PID [--series N]");
    }
    new HostileBench(url, pid).run(series);
  }

  private void run(int series) throws Exception {
    long nowS = System.currentTimeMillis() / 1000;
    load(series, nowS);
    List<Long> baseline = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      long t0 = System.nanoTime();
      probe(form(PROBE, nowS));
      baseline.add((System.nanoTime() - t0) / 1_000_000);
      Thread.sleep(50);
    }
    List<Outcome> outcomes = new ArrayList<>();
    for (Case hostile : cases(nowS)) {
      outcomes.add(measure(hostile, nowS));
    }
    boolean alive = ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    int after = alive ? probe(form(PROBE, nowS)).statusCode() : 0;
    report(series, baseline, outcomes, alive, after);
  }

  /**
   * {@code wide}: one sample per series; {@code long_value}: one series with a 4,000-char value.
   */
  private void load(int series, long nowS) throws IOException, InterruptedException {
    long ms = (nowS - 60) * 1000;
    StringBuilder body = new StringBuilder(series * 40);
    for (int i = 0; i < series; i++) {
      body.append("wide{i=\"")
          .append(i)
          .append("\"} ")
          .append(i)
          .append(' ')
          .append(ms)
          .append('\n');
    }
    for (int host = 0; host < 8; host++) {
      for (int t = 0; t < 240; t++) {
        body.append("normal_gauge{host=\"node-")
            .append(host)
            .append("\"} ")
            .append(t % 17)
            .append(' ')
            .append(ms - (239 - t) * 15_000L)
            .append('\n');
      }
    }
    body.append("long_value{k=\"").append("a".repeat(LONG_VALUE)).append("\"} 1 ").append(ms);
    body.append('\n');
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url + "/api/v1/import/prometheus"))
                .timeout(REQUEST_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString(body.toString()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new IOException("import answered " + response.statusCode() + ": " + response.body());
    }
  }

  private static List<Case> cases(long nowS) {
    List<Case> cases = new ArrayList<>();
    String day = "&start=" + (nowS - 86_400) + "&end=" + nowS;
    cases.add(range("last_over_time(wide[2d]), 1 d at 10 s", "last_over_time(wide[2d])", day, 10));
    cases.add(range("rate(wide[5m]), 1 d at 1 s", "rate(wide[5m])", day, 1));
    cases.add(range("wide, 1 d at 1 s", "wide", day, 1));
    cases.add(
        range(
            "nested subqueries over wide",
            "max_over_time(max_over_time(wide[1h:1s])[1d:1s])",
            "&start=" + (nowS - 3600) + "&end=" + nowS,
            60));
    cases.add(instant("topk(1e6, wide)", "topk(1000000, wide)", nowS));
    cases.add(instant("count_values over wide", "count_values(\"v\", wide)", nowS));
    for (String regex :
        List.of("(.*a){25}b", "(a|aa)*c", "(a+)+b", "((a*)*)*b", "(x+x+)+y", "(.|a)*z")) {
      cases.add(
          instant(
              "matcher =~ " + regex + " on 4,000 chars", "long_value{k=~\"" + regex + "\"}", nowS));
    }
    cases.add(
        instant(
            "label_replace with (a+)+b on 4,000 chars",
            "label_replace(long_value, \"m\", \"$1\", \"k\", \"(a+)+b\")",
            nowS));
    cases.add(
        instant(
            "label_join into a 400,000-char value",
            "label_join(long_value, \"j\", \"\"" + ", \"k\"".repeat(100) + ")",
            nowS));
    cases.add(instant("1,000 nested parentheses", "(".repeat(1000) + "1" + ")".repeat(1000), nowS));
    cases.add(instant("20,000 unary minus", "-".repeat(20_000) + "1", nowS));
    cases.add(instant("3,000 nested calls", "abs(".repeat(3000) + "1" + ")".repeat(3000), nowS));
    cases.add(instant("50,000 chained additions", "1+".repeat(50_000) + "1", nowS));
    String hundredKb = "sum(wide{i!=\"" + "x".repeat(100_000) + "\"})";
    cases.add(
        new Case(
            "100 KB query by GET",
            "/api/v1/query?query=" + encode(hundredKb) + "&time=" + nowS,
            null,
            true));
    return cases;
  }

  private static Case range(String name, String query, String window, int stepSeconds) {
    return new Case(
        name,
        "/api/v1/query_range",
        "query=" + encode(query) + window + "&step=" + stepSeconds,
        false);
  }

  private static Case instant(String name, String query, long nowS) {
    return new Case(name, "/api/v1/query", "query=" + encode(query) + "&time=" + nowS, false);
  }

  private static String form(String query, long nowS) {
    return "query=" + encode(query) + "&time=" + nowS;
  }

  private static String encode(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  private Outcome measure(Case hostile, long nowS) throws Exception {
    AtomicBoolean running = new AtomicBoolean(true);
    AtomicLong peak = new AtomicLong(ProcessRss.kib(pid));
    List<Long> probes = java.util.Collections.synchronizedList(new ArrayList<>());
    AtomicLong probeFailures = new AtomicLong();
    ExecutorService side = Executors.newFixedThreadPool(2);
    try {
      Future<?> sampler =
          side.submit(
              () -> {
                while (running.get()) {
                  peak.accumulateAndGet(ProcessRss.kib(pid), Math::max);
                  sleep(20);
                }
              });
      Future<?> prober =
          side.submit(
              () -> {
                // Bounded: at most one probe per 200 ms for as long as the case runs (≤ 3 min).
                while (running.get()) {
                  long t0 = System.nanoTime();
                  try {
                    if (probe(form(PROBE, nowS)).statusCode() == 200) {
                      probes.add((System.nanoTime() - t0) / 1_000_000);
                    } else {
                      probeFailures.incrementAndGet();
                    }
                  } catch (IOException | InterruptedException e) {
                    probeFailures.incrementAndGet();
                  }
                  sleep(PROBE_EVERY_MS);
                }
              });
      long t0 = System.nanoTime();
      int status;
      String message;
      try {
        HttpResponse<String> response =
            hostile.get()
                ? http.send(
                    HttpRequest.newBuilder(URI.create(url + hostile.path()))
                        .timeout(REQUEST_TIMEOUT)
                        .build(),
                    HttpResponse.BodyHandlers.ofString())
                : send(hostile.path(), hostile.form());
        status = response.statusCode();
        message = message(response.body());
      } catch (IOException e) {
        status = 0;
        message = "no answer: " + e;
      }
      long millis = (System.nanoTime() - t0) / 1_000_000;
      running.set(false);
      sampler.get();
      prober.get();
      return new Outcome(
          hostile,
          status,
          message,
          millis,
          peak.get(),
          List.copyOf(probes),
          (int) probeFailures.get());
    } finally {
      side.shutdownNow();
    }
  }

  private HttpResponse<String> probe(String form) throws IOException, InterruptedException {
    return send("/api/v1/query", form);
  }

  private HttpResponse<String> send(String path, String form)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(REQUEST_TIMEOUT)
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The error message of a Prometheus envelope, or what the body is, shortened. */
  private static String message(String body) {
    int at = body.indexOf("\"error\":\"");
    String text;
    if (at >= 0) {
      int end = body.indexOf("\",\"", at + 9);
      text = body.substring(at + 9, end < 0 ? Math.max(at + 9, body.lastIndexOf('"')) : end);
    } else if (body.startsWith("{\"status\":\"success\"")) {
      text = "success, " + body.length() + " bytes";
    } else {
      text = body.isEmpty() ? "(empty body)" : body;
    }
    text = text.replace("|", "\\|").replace("\n", " ");
    return text.length() > 110 ? text.substring(0, 110) + "…" : text;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void report(
      int series, List<Long> baseline, List<Outcome> outcomes, boolean alive, int after) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "Data: %,d series `wide` (one sample each), 8 series `normal_gauge` (1 h at 15 s),"
                + " one `long_value` with a %,d-character label value. Normal query beside each"
                + " case: `%s` every %d ms; its median alone before the cases: %d ms.%n%n",
            series,
            LONG_VALUE,
            PROBE,
            PROBE_EVERY_MS,
            Latencies.median(baseline)));
    out.append(
        "| Case | Status | Answer | Time, ms | Peak RSS, MiB | Normal query beside it,"
            + " median / max ms (n) |\n");
    out.append("|---|---:|---|---:|---:|---|\n");
    for (Outcome o : outcomes) {
      long max = o.probeMillis().stream().mapToLong(Long::longValue).max().orElse(-1);
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %d | %s | %,d | %,d | %s |%n",
              o.hostile().name(),
              o.status(),
              o.message(),
              o.millis(),
              o.peakRssKib() / 1024,
              o.probeMillis().isEmpty()
                  ? "none ran (" + o.probeFailures() + " failed)"
                  : Latencies.median(o.probeMillis())
                      + " / "
                      + max
                      + " ("
                      + o.probeMillis().size()
                      + (o.probeFailures() > 0 ? ", " + o.probeFailures() + " failed" : "")
                      + ")"));
    }
    out.append(
        String.format(
            Locale.ROOT,
            "%nServer alive after the suite: %s; the normal query then answered %d. Cases that"
                + " ended in 500: %d; with no answer: %d.%n",
            alive ? "yes" : "NO",
            after,
            outcomes.stream().filter(o -> o.status() == 500).count(),
            outcomes.stream().filter(o -> o.status() == 0).count()));
    System.out.print(out);
  }
}
