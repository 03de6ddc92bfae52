package io.flightdeck.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The cockpit's run-page benchmark (bench/cockpit-bench.sh runs it):
 *
 * <pre>
 * load    --url URL --work DIR [--hours 24] [--seed 7]   write the run bench-run into a server
 * measure --url URL --work DIR [--loads 5] [--warmup 5] [--params Q]
 *                                                         open /runs/bench-run[?Q], replay its
 *                                                         panels Grafana's way, print a table
 * </pre>
 */
public final class CockpitBench {

  private static final long STEP_SECONDS = 15;
  private static final double GOAL_MS = 1000;

  private CockpitBench() {}

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      throw usage("no command");
    }
    Map<String, String> options = options(args);
    switch (args[0]) {
      case "load" -> load(options);
      case "measure" -> measure(options);
      default -> throw usage("unknown command " + args[0]);
    }
  }

  private static void load(Map<String, String> options) throws Exception {
    int hours = Integer.parseInt(options.getOrDefault("hours", "24"));
    long seed = Long.parseLong(options.getOrDefault("seed", "7"));
    Path work = Path.of(required(options, "work"));
    Workload workload = new CockpitWorkload(seed).generate(Duration.ofHours(hours), Instant.now());
    Path file = work.resolve("cockpit.rw");
    long t0 = System.nanoTime();
    WorkloadEncoder.Encoded encoded = new WorkloadEncoder(2000, seed).encode(workload, file);
    double encodeSeconds = (System.nanoTime() - t0) / 1e9;
    Sender.Result sent;
    try (RequestFile requests = RequestFile.open(file)) {
      sent = new Sender(URI.create(required(options, "url") + "/api/v1/write"), 4).send(requests);
    } finally {
      Files.deleteIfExists(file);
    }
    System.out.printf(
        Locale.ROOT,
        "series=%d samples=%d hours=%d start_ms=%d encode_s=%.1f send_s=%.1f samples_per_s=%.0f"
            + " requests=%d body_bytes=%d%n",
        workload.series().size(),
        sent.samples(),
        hours,
        workload.startMs(),
        encodeSeconds,
        sent.wall().toNanos() / 1e9,
        sent.samplesPerSecond(),
        encoded.requests(),
        encoded.bodyBytes());
  }

  private static void measure(Map<String, String> options) throws Exception {
    String url = required(options, "url");
    int loads = Integer.parseInt(options.getOrDefault("loads", "5"));
    if (loads < 1) {
      throw usage("--loads must be at least 1");
    }
    int warmupLoads = Integer.parseInt(options.getOrDefault("warmup", "5"));
    if (warmupLoads < 0) {
      throw usage("--warmup must be at least 0");
    }
    Path work = Path.of(required(options, "work"));
    String params = options.getOrDefault("params", "");
    String page = "/runs/" + CockpitWorkload.RUN + (params.isEmpty() ? "" : "?" + params);
    RunPageLoads pages = new RunPageLoads(url + page, work.resolve("profiles"));
    PanelReplay grafana = new PanelReplay(url);

    // One load first, unmeasured, that records the panels' queries (its fetch is wrapped) and
    // lets the server compile its query paths, as a server that has run for a while has.
    log("recording the run page's queries");
    RunPageLoads.Panels panels = pages.recordPanels();
    log(
        panels.exprs().size()
            + " queries over "
            + (panels.endSeconds() - panels.startSeconds()) / 3600
            + " h");
    log("warming Grafana's approach once");
    grafana.replay(panels, STEP_SECONDS);
    // A server that has run for a while has compiled its query paths (the JIT needs a few
    // thousand calls of a method); one load is not that server. The first loads after a start
    // are timed apart and reported as such, never in the medians.
    List<Double> warmups = new ArrayList<>();
    for (int i = 1; i <= warmupLoads; i++) {
      RunPageLoads.Load load = pages.measure("warmup-" + i);
      warmups.add(load.lastChartDrawnMs());
      log(
          String.format(
              Locale.ROOT,
              "warm-up load %d: last chart drawn at %.0f ms",
              i,
              load.lastChartDrawnMs()));
    }

    String loadBefore = loadAverage();
    // Turns, so that a machine whose speed drifts slows both alike.
    List<RunPageLoads.Load> ours = new ArrayList<>();
    List<PanelReplay.Replay> theirs = new ArrayList<>();
    for (int i = 1; i <= loads; i++) {
      RunPageLoads.Load load = pages.measure("load-" + i);
      ours.add(load);
      log(
          String.format(
              Locale.ROOT,
              "load %d: last chart drawn at %.0f ms (overview %.0f ms: series request %.0f ms,"
                  + " drawing %.0f ms), %d of %d charts ready, %d error, API %d bytes",
              i,
              load.lastChartDrawnMs(),
              load.overviewMs(),
              load.seriesRequestMs(),
              load.drawMs(),
              load.ready(),
              load.charts(),
              load.error(),
              load.apiTransferBytes()));
      PanelReplay.Replay replay = grafana.replay(panels, STEP_SECONDS);
      theirs.add(replay);
      log(
          String.format(
              Locale.ROOT,
              "replay %d: %d query_range in %.0f ms, %d bytes on the wire",
              i,
              replay.requests(),
              replay.wallMs(),
              replay.wireBytes()));
    }
    String loadAfter = loadAverage();
    log("each query alone, 3 tries each way");
    List<PanelReplay.QueryCost> costs = grafana.perQuery(panels, STEP_SECONDS, 3);
    String report = report(url, page, pages.browserVersion(), panels, warmups, ours, theirs);
    report +=
        "Load average (1, 5, 15 min) of the machine before the loads: "
            + loadBefore
            + "; after: "
            + loadAfter
            + ".\n";
    System.out.print(report);
    System.out.print(costs(costs));
  }

  private static String report(
      String url,
      String page,
      String browser,
      RunPageLoads.Panels panels,
      List<Double> warmups,
      List<RunPageLoads.Load> ours,
      List<PanelReplay.Replay> theirs) {
    StringBuilder out = new StringBuilder();
    String date =
        DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm 'UTC'")
            .format(Instant.now().atOffset(ZoneOffset.UTC));
    RunPageLoads.Load first = ours.get(0);
    out.append("# Cockpit run-page benchmark, ").append(date).append("\n\n");
    out.append(
        String.format(
            Locale.ROOT,
            "Run `%s`: %.1f h at 15 s, 64 GPUs on 8 nodes (bench/src/main/java/io/flightdeck/bench/"
                + "CockpitWorkload.java). Page `%s`, 1280x900, %d loads, each in a fresh"
                + " headless browser (cold cache). Grafana's approach: the page's %d queries as"
                + " `query_range` at step %d s, %d at a time, after each load.%n",
            CockpitWorkload.RUN,
            (panels.endSeconds() - panels.startSeconds()) / 3600,
            page,
            ours.size(),
            panels.exprs().size(),
            STEP_SECONDS,
            PanelReplay.BROWSER_CONNECTIONS_PER_HOST));
    out.append(
        String.format(
            Locale.ROOT,
            "Charts: %d on the page, %d drawn (ready), %d empty (optional series the run lacks,"
                + " hidden), %d errors; %d series and %d points drawn.%n",
            first.charts(),
            first.ready(),
            first.empty(),
            first.error(),
            first.series(),
            first.points()));
    out.append("Machine: ").append(machine()).append("; ").append(browser).append(".\n\n");

    out.append("| Metric (median; min–max) | Cockpit | Grafana's approach | Grafana/cockpit |\n");
    out.append("|---|---:|---:|---:|\n");
    row(
        out,
        "Time to the last chart drawn, ms (Grafana: last answer read, nothing drawn)",
        ours,
        RunPageLoads.Load::lastChartDrawnMs,
        theirs,
        PanelReplay.Replay::wallMs,
        "%.0f");
    row(out, "Data requests", ours, l -> l.apiRequests(), theirs, r -> r.requests(), "%.0f");
    row(
        out,
        "Bytes transferred for data (API bodies as sent)",
        ours,
        l -> l.apiEncodedBytes(),
        theirs,
        r -> r.wireBytes(),
        "%,.0f");
    row(
        out,
        "Bytes of data once decoded",
        ours,
        l -> l.apiDecodedBytes(),
        theirs,
        r -> r.decodedBytes(),
        "%,.0f");
    row(
        out,
        "Points delivered (cockpit: drawn)",
        ours,
        l -> l.points(),
        theirs,
        r -> r.points(),
        "%,.0f");
    out.append("\n");

    out.append("Where the cockpit's time goes (ms since navigation start; median; min–max):\n\n");
    out.append("| Phase | ms |\n|---|---:|\n");
    phase(
        out,
        "Page, scripts and `GET /api/v1/runs/bench-run` (until the overview starts)",
        ours,
        RunPageLoads.Load::overviewStartMs);
    phase(out, "Step map and events requests", ours, RunPageLoads.Load::stepmapEventsMs);
    phase(
        out,
        "`POST /api/v1/cockpit/series` (one request, every chart), request to last byte",
        ours,
        RunPageLoads.Load::seriesRequestMs);
    phase(
        out, "Drawing, from the series answer to the last chart", ours, RunPageLoads.Load::drawMs);
    phase(out, "Overview measure (`flightdeck:overview`)", ours, RunPageLoads.Load::overviewMs);
    phase(out, "Last chart drawn", ours, RunPageLoads.Load::lastChartDrawnMs);
    out.append("\n");
    double median = median(ours, RunPageLoads.Load::lastChartDrawnMs);
    long under = ours.stream().filter(l -> l.lastChartDrawnMs() < GOAL_MS).count();
    out.append(
        String.format(
            Locale.ROOT,
            "Goal: every chart drawn in under %.0f ms, every load: %s (%d of %d loads; median %.0f"
                + " ms). All bytes of a cold load (page, scripts, styles, API): %,.0f. Grafana's"
                + " approach, sum of its request times: %.0f ms; slowest request: %.0f ms.%n",
            GOAL_MS,
            under == ours.size() ? "met" : "NOT met",
            under,
            ours.size(),
            median,
            median(ours, l -> l.allTransferBytes()),
            median(theirs, PanelReplay.Replay::sumRequestMs),
            median(theirs, PanelReplay.Replay::slowestRequestMs)));
    out.append(
        warmups.isEmpty()
            ? "No warm-up loads: the loads above began on a server that had served one page.\n"
            : "Warm-up loads before them (the server just started and one page served: its query"
                + " paths still being compiled), last chart drawn, ms: "
                + warmups.stream()
                    .map(ms -> String.format(Locale.ROOT, "%.0f", ms))
                    .collect(java.util.stream.Collectors.joining(", "))
                + ".\n");
    out.append("Server: ").append(url).append(".\n");
    return out.toString();
  }

  private static String costs(List<PanelReplay.QueryCost> costs) {
    StringBuilder out = new StringBuilder("\n");
    out.append(
        "Each query alone, one request at a time (median of 3; quoted strings over 40 characters,"
            + " the run's 64 GPU UUIDs and 8 hosts, shortened to \"…\"):\n\n");
    out.append(
        "| Query | cockpit/series, ms | bytes | query_range at 15 s, ms | bytes | series |"
            + " points |\n");
    out.append("|---|---:|---:|---:|---:|---:|---:|\n");
    double ours = 0;
    double theirs = 0;
    for (PanelReplay.QueryCost c : costs) {
      ours += c.cockpitMs();
      theirs += c.queryRangeMs();
      out.append(
          String.format(
              Locale.ROOT,
              "| `%s` | %.0f | %,d | %.0f | %,d | %d | %,d |%n",
              c.expr().replaceAll("\"[^\"]{40,}\"", "\"…\"").replace("|", "\\|"),
              c.cockpitMs(),
              c.cockpitWireBytes(),
              c.queryRangeMs(),
              c.queryRangeWireBytes(),
              c.queryRangeSeries(),
              c.queryRangePoints()));
    }
    out.append(String.format(Locale.ROOT, "| Sum | %.0f | | %.0f | | | |%n", ours, theirs));
    return out.toString();
  }

  private static <A, B> void row(
      StringBuilder out,
      String name,
      List<A> ours,
      ToDoubleFunction<A> ourValue,
      List<B> theirs,
      ToDoubleFunction<B> theirValue,
      String format) {
    double a = median(ours, ourValue);
    double b = median(theirs, theirValue);
    out.append("| ")
        .append(name)
        .append(" | ")
        .append(spread(ours, ourValue, format))
        .append(" | ")
        .append(spread(theirs, theirValue, format))
        .append(" | ")
        .append(a == 0 ? "n/a" : String.format(Locale.ROOT, "%.1f", b / a))
        .append(" |\n");
  }

  private static void phase(
      StringBuilder out,
      String name,
      List<RunPageLoads.Load> loads,
      ToDoubleFunction<RunPageLoads.Load> value) {
    out.append("| ").append(name).append(" | ").append(spread(loads, value, "%.0f")).append(" |\n");
  }

  private static <T> String spread(List<T> items, ToDoubleFunction<T> value, String format) {
    double[] v = items.stream().mapToDouble(value).sorted().toArray();
    String median = String.format(Locale.ROOT, format, median(items, value));
    if (v[0] == v[v.length - 1]) {
      return median;
    }
    return median
        + "; "
        + String.format(Locale.ROOT, format, v[0])
        + "–"
        + String.format(Locale.ROOT, format, v[v.length - 1]);
  }

  /** The median; for an even count, the mean of the two middle values. */
  static <T> double median(List<T> items, ToDoubleFunction<T> value) {
    double[] v = items.stream().mapToDouble(value).sorted().toArray();
    int n = v.length;
    return n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  }

  /** The first three fields of /proc/loadavg: other work on the machine slows every figure. */
  private static String loadAverage() {
    try {
      String[] fields = Files.readString(Path.of("/proc/loadavg")).strip().split(" ");
      return String.join(", ", fields[0], fields[1], fields[2]);
    } catch (IOException | ArrayIndexOutOfBoundsException e) {
      return "unknown";
    }
  }

  private static String machine() {
    String model = "unknown CPU";
    try {
      model =
          Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
              .filter(l -> l.startsWith("model name"))
              .map(l -> l.substring(l.indexOf(':') + 1).strip())
              .findFirst()
              .orElse(model);
    } catch (IOException e) {
      // not Linux: the model stays unknown
    }
    long memory =
        ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
            .getTotalMemorySize();
    return String.format(
        Locale.ROOT,
        "%d CPUs (%s), %.0f GiB RAM, %s %s, Java %s",
        Runtime.getRuntime().availableProcessors(),
        model,
        memory / (double) (1L << 30),
        System.getProperty("os.name"),
        System.getProperty("os.version"),
        System.getProperty("java.version"));
  }

  private static void log(String line) {
    System.err.println("[cockpit-bench] " + line);
  }

  private static Map<String, String> options(String[] args) {
    Map<String, String> options = new HashMap<>();
    for (int i = 1; i < args.length; i += 2) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw usage("expected --name value, got " + args[i]);
      }
      options.put(args[i].substring(2), args[i + 1]);
    }
    return options;
  }

  private static String required(Map<String, String> options, String name) {
    String value = options.get(name);
    if (value == null) {
      throw usage("--" + name + " is required");
    }
    return value;
  }

  private static IllegalArgumentException usage(String problem) {
    return new IllegalArgumentException(
        problem
            + "; usage: load --url URL --work DIR [--hours 24] [--seed 7]"
            + " | measure --url URL --work DIR [--loads 5] [--warmup 5] [--params QUERY]");
  }
}
