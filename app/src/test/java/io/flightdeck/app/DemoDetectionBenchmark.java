package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.demo.DemoOptions;
import io.flightdeck.demo.Incident;
import io.flightdeck.demo.RunningDemo;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The detectors' delays on the real demo through a real server, measured, not asserted: the demo
 * runs at {@code -Ddemo.speed} (60 unless told), and {@code /api/v1/runs/{run}/events} of each
 * incident's run is asked every 100 ms of wall time (6 simulated seconds at 60×) while it runs. For
 * each incident, the delay is from its scripted start to the first answer that holds an event of
 * its detector's kind (on its GPU where it names one), in simulated seconds; every detector event
 * that no incident explains is listed. An incident whose slowdown shows in the data only after a
 * build-up is also timed from the moment it does: the hot GPU heats for 3 minutes and runs at full
 * clock until it reaches 85 °C, so its straggling is timed from the last full-clock sample before
 * its first throttled one ({@link #observableOnset}). Not part of the suite (no {@code Test} in its
 * name): {@code -Dtest=DemoDetectionBenchmark}; it prints the table and writes {@code
 * target/demo-detection-benchmark.md} (copied by hand to {@code bench/detectors.md}).
 */
class DemoDetectionBenchmark {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double SPEED = Double.parseDouble(System.getProperty("demo.speed", "60"));

  /** Each incident's detector kind. */
  private static final Map<String, String> DETECTOR =
      Map.of(
          "nan-loss", "nan",
          "hot-gpu", "straggler",
          "memory-leak", "staircase",
          "network-saturation", "throughput_drop",
          "loss-rebound", "lr_rewarmup",
          "hung-rank", "hung_rank",
          "xid-79", "gpu_lost");

  /** The other detector kinds an incident explains, as its alerts' alsoAllowed do. */
  private static final Map<String, Set<String>> ALSO =
      Map.of(
          "nan-loss", Set.of("spike", "throughput_drop"),
          "hot-gpu", Set.of(),
          "memory-leak", Set.of(),
          "network-saturation", Set.of("starvation"),
          "loss-rebound", Set.of("spike"),
          "hung-rank", Set.of("stall", "throughput_drop"),
          "xid-79", Set.of("stall", "xid", "restart", "throughput_drop"));

  private static final Set<String> DETECTOR_KINDS =
      Set.of(
          "nan",
          "spike",
          "stall",
          "hung_rank",
          "straggler",
          "starvation",
          "staircase",
          "throughput_drop",
          "lr_rewarmup");

  /**
   * The incidents whose slowdown the data shows only after a build-up, and the series that shows
   * it: the hot GPU's SM clock, at full speed through its heating ramp until it throttles.
   */
  private static final Map<String, String> SLOWED_SERIES =
      Map.of("hot-gpu", "DCGM_FI_DEV_SM_CLOCK");

  /** A clock this far below its level before the incident is throttled. */
  private static final double SLOWED_FRACTION = 0.9;

  /** An incident's event as first seen: when (simulated s) and where. */
  private record Seen(double atSim, double eventSim, String host, String gpu) {}

  @Test
  void measure(@TempDir Path dir) throws Exception {
    DemoOptions options = DemoOptions.defaults(dir.resolve("demo")).withSpeed(SPEED);
    Map<String, Seen> first = new LinkedHashMap<>();
    Map<String, Double> unexplained = new LinkedHashMap<>(); // kind host gpu @ sim → first seen
    Map<String, Double> observable = new LinkedHashMap<>(); // incident → slowdown first in data
    String cost;
    List<Incident> incidents;
    try (RunningDemo demo = RunningDemo.start(options)) {
      incidents = demo.incidents();
      DemoCommand command = new DemoCommand();
      command.dataDir = dir;
      command.serverArgs = new ArrayList<>();
      List<String> flags =
          command.serverArguments(demo).stream()
              .filter(a -> !a.startsWith("--storage.tsdb.path"))
              .toList();
      try (FlightdeckServerProcess server =
          FlightdeckServerProcess.start(
              dir.resolve("tsdb"), dir.resolve("server.log"), flags.toArray(new String[0]))) {
        server.awaitReady();
        long wallFrom = System.nanoTime();
        Set<String> runs = new java.util.TreeSet<>();
        incidents.forEach(i -> runs.add(i.run()));
        for (int polls = 0; !demo.finished() && polls < 200_000; polls++) {
          double now = demo.simSecondsAt(System.currentTimeMillis() / 1000.0);
          for (String run : runs) {
            for (JsonNode event : events(server, run)) {
              observe(demo, incidents, run, event, now, first, unexplained);
            }
          }
          Thread.sleep(100);
        }
        cost = loopCost(server, (System.nanoTime() - wallFrom) / 1e9);
        for (Incident incident : incidents) {
          if (SLOWED_SERIES.containsKey(incident.id())) {
            observable.put(incident.id(), observableOnset(server, demo, incident));
          }
        }
      }
    }
    String report = report(incidents, first, unexplained, observable) + cost;
    System.out.println(report);
    Files.createDirectories(Path.of("target"));
    Files.writeString(Path.of("target", "demo-detection-benchmark.md"), report);
  }

  /**
   * When the incident's slowdown becomes observable, in simulated seconds: the last sample of its
   * GPU's {@link #SLOWED_SERIES} at its level before the incident (the median of the 10 minutes
   * before it) that precedes the first one below {@link #SLOWED_FRACTION} of it. The slowdown began
   * between the two samples; the earlier one is taken, so the delay is not understated. Null when
   * the series never drops.
   */
  private static Double observableOnset(
      FlightdeckServerProcess server, RunningDemo demo, Incident incident) throws Exception {
    String selector =
        String.format(
            Locale.ROOT,
            "%s{instance=\"%s\",gpu=\"%s\"}[1h]",
            SLOWED_SERIES.get(incident.id()),
            incident.scope().get("instance"),
            incident.scope().get("gpu"));
    String path = "/api/v1/query?query=" + java.net.URLEncoder.encode(selector, "UTF-8");
    JsonNode result =
        JSON.readTree(TestHttp.get(server.uri(path)).body()).path("data").path("result");
    if (result.size() != 1) {
      throw new IllegalStateException(selector + " gave " + result.size() + " series: " + result);
    }
    List<double[]> samples = new ArrayList<>(); // {simulated s, value}
    for (JsonNode point : result.get(0).path("values")) {
      samples.add(
          new double[] {demo.simSecondsAt(point.get(0).asDouble()), point.get(1).asDouble()});
    }
    double start = incident.start().toSeconds();
    double[] before =
        samples.stream()
            .filter(p -> p[0] < start && p[0] >= start - 600)
            .mapToDouble(p -> p[1])
            .sorted()
            .toArray();
    if (before.length == 0) {
      throw new IllegalStateException(
          selector + " has no sample in the 10 minutes before " + start);
    }
    double level = before[before.length / 2];
    for (int i = 1; i < samples.size(); i++) {
      if (samples.get(i)[0] >= start && samples.get(i)[1] < SLOWED_FRACTION * level) {
        return Math.max(start, samples.get(i - 1)[0]);
      }
    }
    return null;
  }

  /**
   * The detection loop's passes and their share of a core over the demo, from the server's own
   * metrics ({@code flightdeck_detection_*}).
   */
  private static String loopCost(FlightdeckServerProcess server, double wallSeconds)
      throws Exception {
    String metrics = TestHttp.get(server.uri("/metrics")).body();
    double passes = metricValue(metrics, "flightdeck_detection_passes_total");
    double seconds = metricValue(metrics, "flightdeck_detection_pass_seconds_total");
    return String.format(
        Locale.ROOT,
        "%nDetection loop: %.0f passes in %.0f s of wall time (%.1f a simulated minute), %.1f s of"
            + " passes: %.1f%% of a core.%n",
        passes,
        wallSeconds,
        passes / (wallSeconds * SPEED / 60),
        seconds,
        100 * seconds / wallSeconds);
  }

  private static double metricValue(String exposition, String name) {
    for (String line : exposition.split("\n")) {
      if (line.startsWith(name + " ")) {
        return Double.parseDouble(line.substring(name.length() + 1).trim());
      }
    }
    throw new AssertionError(name + " is not on /metrics");
  }

  private static JsonNode events(FlightdeckServerProcess server, String run) throws Exception {
    String path = "/api/v1/runs/" + java.net.URLEncoder.encode(run, "UTF-8") + "/events";
    return JSON.readTree(TestHttp.get(server.uri(path)).body()).path("data");
  }

  private static void observe(
      RunningDemo demo,
      List<Incident> incidents,
      String run,
      JsonNode event,
      double nowSim,
      Map<String, Seen> first,
      Map<String, Double> unexplained) {
    String kind = event.path("kind").asText();
    String host = event.path("host").isNull() ? null : event.path("host").asText();
    String gpu = event.path("gpu").isNull() ? null : event.path("gpu").asText();
    double eventSim = demo.simSecondsAt(event.path("time").asDouble());
    boolean explained = !DETECTOR_KINDS.contains(kind);
    for (Incident incident : incidents) {
      if (!incident.run().equals(run) || !onItsGpu(incident, host, gpu)) {
        continue;
      }
      boolean within =
          eventSim >= incident.start().toSeconds() - 60
              && eventSim <= incident.end().toSeconds() + 1200;
      if (!within) {
        continue;
      }
      if (kind.equals(DETECTOR.get(incident.id()))) {
        explained = true;
        first.putIfAbsent(incident.id(), new Seen(nowSim, eventSim, host, gpu));
      } else if (ALSO.get(incident.id()).contains(kind)) {
        explained = true;
      }
    }
    if (!explained) {
      unexplained.putIfAbsent(
          String.format(Locale.ROOT, "%s %s %s at %.0f s", kind, run, host + "/" + gpu, eventSim),
          nowSim);
    }
  }

  /** An incident naming a GPU ({@code instance} and {@code gpu}) is found only on that GPU. */
  private static boolean onItsGpu(Incident incident, String host, String gpu) {
    String gpuOf = incident.scope().get("gpu");
    if (gpuOf == null) {
      return true;
    }
    String instance = incident.scope().get("instance");
    return gpuOf.equals(gpu) && host != null && instance.startsWith(host + ":");
  }

  /** The observable onset's cell: the scripted start where the data shows it at once. */
  private static String onsetCell(Incident incident, Map<String, Double> observable) {
    if (!SLOWED_SERIES.containsKey(incident.id())) {
      return "= onset";
    }
    Double at = observable.get(incident.id());
    return at == null ? "never" : String.format(Locale.ROOT, "%.0f", at);
  }

  private static String delayFromObservable(
      Incident incident, Map<String, Double> observable, Seen seen) {
    Double from =
        SLOWED_SERIES.containsKey(incident.id())
            ? observable.get(incident.id())
            : Double.valueOf(incident.start().toSeconds());
    return from == null ? "–" : String.format(Locale.ROOT, "%.0f", seen.atSim() - from);
  }

  private static String report(
      List<Incident> incidents,
      Map<String, Seen> first,
      Map<String, Double> unexplained,
      Map<String, Double> observable) {
    StringBuilder out = new StringBuilder();
    out.append(
        String.format(
            Locale.ROOT,
            "The demo at %.0f× through a real server; events asked every 100 ms (%.0f simulated"
                + " s).%n%n",
            SPEED,
            SPEED / 10));
    out.append(
        "| incident | run | detector | onset (s) | first seen (s) | delay (s) | where |"
            + " observable from (s) | delay from it (s) |\n");
    out.append("|---|---|---|---|---|---|---|---|---|\n");
    for (Incident incident : incidents) {
      Seen seen = first.get(incident.id());
      out.append(
          String.format(
              Locale.ROOT,
              "| %s | %s | `%s` | %d | %s | %s | %s | %s | %s |%n",
              incident.id(),
              incident.run(),
              DETECTOR.get(incident.id()),
              incident.start().toSeconds(),
              seen == null ? "–" : String.format(Locale.ROOT, "%.0f", seen.atSim()),
              seen == null
                  ? "not found"
                  : String.format(Locale.ROOT, "%.0f", seen.atSim() - incident.start().toSeconds()),
              seen == null
                  ? ""
                  : (seen.host() == null ? "run" : seen.host() + " GPU " + seen.gpu()),
              onsetCell(incident, observable),
              seen == null ? "" : delayFromObservable(incident, observable, seen)));
    }
    out.append("\nDetector events no incident explains: ");
    out.append(unexplained.isEmpty() ? "none.\n" : "\n");
    unexplained.forEach(
        (what, at) ->
            out.append(String.format(Locale.ROOT, "- %s (first seen at %.0f s)%n", what, at)));
    return out.toString();
  }
}
