package io.flightdeck.app;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.demo.DemoOptions;
import io.flightdeck.demo.Incident;
import io.flightdeck.demo.RunningDemo;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole demo against a real server at high speed: every scripted incident fires each of its
 * shipped alerts while it lasts, and no alert fires that no incident explains (no false alarm over
 * the healthy stretches); and the runs table's ETA of every run that ends is within 10% of its true
 * end from its tenth on ({@link DemoEtaProbe}). Takes about 90 seconds: the simulated 150 minutes
 * at speed 120.
 */
class DemoEndToEndTest {
  private static final double SPEED = 120;

  /** An alert may start pending this long (simulated) after its incident ended: windows lag. */
  private static final double LINGER_SECONDS = 20 * 60;

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One alert instance as first seen firing. */
  record Firing(String name, Map<String, String> labels, double activeSim, double firingSim) {}

  @Test
  void everyIncidentFiresItsAlertsAndNothingElseFires(@TempDir Path dir) throws Exception {
    DemoOptions options = DemoOptions.defaults(dir.resolve("demo")).withSpeed(SPEED);
    Map<String, Firing> firings = new LinkedHashMap<>();
    DemoEtaProbe eta = new DemoEtaProbe();
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
        while (!demo.finished()) {
          collectFiring(server, demo, firings);
          eta.poll(server);
          Thread.sleep(200);
        }
        // The last evaluations and TensorBoard polls after the end.
        for (int i = 0; i < 10; i++) {
          collectFiring(server, demo, firings);
          eta.poll(server);
          Thread.sleep(200);
        }
        assertEveryRunThatEndsHadItsEndForeseen(eta);
        String failures = judge(incidents, firings);
        assertTrue(failures.isEmpty(), failures + "\nall firings:\n" + describe(firings));
        assertEveryExpectedAlertWasDeliveredToTheChat(server, incidents);
      }
    }
  }

  /**
   * The demo's TensorBoard runs (a LoRA baseline and its sibling with a warm restart) finish; its
   * main job dies of its XID 79 and has no true end to measure against.
   */
  private static void assertEveryRunThatEndsHadItsEndForeseen(DemoEtaProbe eta)
      throws java.io.IOException {
    List<DemoEtaProbe.Judged> judged = eta.judge();
    String table = DemoEtaProbe.table(judged, SPEED);
    System.out.println(table);
    java.nio.file.Files.createDirectories(Path.of("target"));
    java.nio.file.Files.writeString(Path.of("target", "demo-eta.md"), table);
    List<String> ended =
        judged.stream().filter(j -> j.errors().length > 0).map(DemoEtaProbe.Judged::run).toList();
    assertTrue(ended.size() >= 2, "runs that finished: " + ended + "\n" + table);
    assertTrue(
        judged.stream().filter(j -> j.errors().length > 0).allMatch(DemoEtaProbe.Judged::metGoal),
        table);
  }

  private static void collectFiring(
      FlightdeckServerProcess server, RunningDemo demo, Map<String, Firing> firings)
      throws Exception {
    HttpResponse<String> response = TestHttp.get(server.uri("/api/v1/alerts"));
    double now = demo.simSecondsAt(System.currentTimeMillis() / 1000.0);
    for (JsonNode alert : JSON.readTree(response.body()).path("data").path("alerts")) {
      if (!alert.path("state").asText().equals("firing")) {
        continue;
      }
      Map<String, String> labels = new TreeMap<>();
      alert.path("labels").properties().forEach(e -> labels.put(e.getKey(), e.getValue().asText()));
      String key = labels.toString();
      if (!firings.containsKey(key)) {
        double active =
            demo.simSecondsAt(
                Instant.parse(alert.path("activeAt").asText()).toEpochMilli() / 1000.0);
        firings.put(key, new Firing(labels.get("alertname"), labels, active, now));
      }
    }
  }

  /** What went wrong, one line each; empty when the run is right. */
  /**
   * The built-in team chat is a real webhook: each incident's expected alerts reached it, and the
   * notification log says so with the delivery's result.
   */
  private static void assertEveryExpectedAlertWasDeliveredToTheChat(
      FlightdeckServerProcess server, List<Incident> incidents) throws Exception {
    JsonNode log =
        JSON.readTree(TestHttp.get(server.uri("/api/v1/notifications")).body()).path("data");
    java.util.Set<String> delivered = new java.util.TreeSet<>();
    for (JsonNode delivery : log) {
      if (delivery.path("ok").asBoolean()
          && delivery.path("integration").asText().equals("webhook")) {
        delivery.path("alerts").forEach(a -> delivered.add(a.path("alertname").asText()));
      }
    }
    for (Incident incident : incidents) {
      org.assertj.core.api.Assertions.assertThat(delivered)
          .as("alerts delivered to the demo's chat, for incident %s", incident.id())
          .containsAll(incident.expectedAlerts());
    }
  }

  private static String judge(List<Incident> incidents, Map<String, Firing> firings) {
    StringBuilder failures = new StringBuilder();
    for (Incident incident : incidents) {
      for (String expected : incident.expectedAlerts()) {
        boolean fired =
            firings.values().stream()
                .anyMatch(
                    f ->
                        f.name().equals(expected)
                            && inScope(incident, f)
                            && f.firingSim() >= incident.start().toSeconds()
                            && f.firingSim() <= incident.end().toSeconds() + 60);
        if (!fired) {
          failures.append(
              "incident %s (%s-%s s simulated) did not fire %s in its window%n"
                  .formatted(
                      incident.id(),
                      incident.start().toSeconds(),
                      incident.end().toSeconds(),
                      expected));
        }
      }
    }
    for (Firing f : firings.values()) {
      boolean explained =
          incidents.stream()
              .anyMatch(
                  i ->
                      (i.expectedAlerts().contains(f.name()) || i.alsoAllowed().contains(f.name()))
                          && inScope(i, f)
                          && f.activeSim() >= i.start().toSeconds() - 60
                          && f.activeSim() <= i.end().toSeconds() + LINGER_SECONDS);
      if (!explained) {
        failures.append(
            "false alarm: %s %s active at %.0f s simulated, explained by no incident%n"
                .formatted(f.name(), f.labels(), f.activeSim()));
      }
    }
    return failures.toString();
  }

  /**
   * Whether the alert concerns the incident's labels. A run detection names its GPU by {@code
   * Hostname} and {@code gpu}, not by the exporter's {@code instance}: an instance {@code
   * host:port} matches the alert's {@code Hostname} when the alert has no instance.
   */
  private static boolean inScope(Incident incident, Firing firing) {
    return incident.scope().entrySet().stream()
        .allMatch(
            e ->
                e.getValue().equals(firing.labels().get(e.getKey()))
                    || (e.getKey().equals("instance")
                        && !firing.labels().containsKey("instance")
                        && e.getValue().startsWith(firing.labels().get("Hostname") + ":")));
  }

  private static String describe(Map<String, Firing> firings) {
    StringBuilder out = new StringBuilder();
    for (Firing f : firings.values()) {
      out.append(
          "  %s active %.0f firing %.0f %s%n"
              .formatted(f.name(), f.activeSim(), f.firingSim(), f.labels()));
    }
    return out.toString();
  }
}
