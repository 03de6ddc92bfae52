package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A detection becomes an alert and a notification: a server with the shipped training-detections
 * pack, a webhook receiver on 127.0.0.1, and two runs imported as their scrapes would have stored
 * them (2 nodes × 2 GPUs, prometheus_client rank gauges and dcgm-exporter GPU gauges every 15 s,
 * seeded noise, as training's SimulatedRun writes them): in one, every rank stops stepping 8
 * minutes ago while one GPU sits at 0% and 96 W and the others spin at 100%; the other is healthy.
 * The hung GPU is notified with the run, host and GPU in its labels and the pack's text; the
 * healthy run has no detection, no alert and no notification.
 */
class RunDetectionAlertEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PACK =
      Path.of(System.getProperty("flightdeck.root"), "rules", "packs", "training-detections.yml");
  private static final long EVERY_S = 15;
  private static final long RUN_S = 40 * 60;
  private static final long HANG_S = 8 * 60;

  @TempDir Path dir;

  @Test
  void aHungGpuIsNotifiedWithItsRunAndGpuAndAHealthyRunIsNot() throws Exception {
    List<JsonNode> received = new CopyOnWriteArrayList<>();
    HttpServer webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    webhook.createContext(
        "/hook",
        exchange -> {
          received.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    webhook.start();
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(
        config,
        """
        global:
          evaluation_interval: 1s
        rule_files:
          - %s
        notifications:
          route:
            receiver: team
            group_by: [alertname, run]
            group_wait: 0s
            group_interval: 1s
            repeat_interval: 1h
          receivers:
            - name: team
              webhook_configs:
                - url: http://127.0.0.1:%d/hook
        """
            .formatted(PACK, webhook.getAddress().getPort()));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--config.file=" + config,
            "--collector.enable=false",
            "--cockpit.detection-window=30m")) {
      server.awaitReady();
      long now = System.currentTimeMillis();
      importRun(server, "hung", now, true);
      importRun(server, "healthy", now, false);

      JsonNode firing = awaitFiring(received, "TrainingRunHungRank", Duration.ofSeconds(60));
      JsonNode alert = firing.path("alerts").get(0);
      JsonNode labels = alert.path("labels");
      assertThat(labels.path("run").asText()).isEqualTo("hung");
      assertThat(labels.path("Hostname").asText()).isEqualTo("hung-node-1");
      assertThat(labels.path("gpu").asText()).isEqualTo("1");
      assertThat(labels.path("severity").asText()).isEqualTo("critical");
      assertThat(alert.path("annotations").path("summary").asText())
          .isEqualTo("Run hung: GPU 1 on hung-node-1 hangs");
      assertThat(alert.path("annotations").path("description").asText())
          .startsWith("GPU 1 of hung-node-1 holds up the run.");

      // The run page's events answer from the loop's cache and name the same GPU.
      JsonNode events =
          JSON.readTree(TestHttp.get(server.uri("/api/v1/runs/hung/events")).body()).path("data");
      assertThat(events.findValuesAsText("kind")).contains("hung_rank", "stall");

      // A few more evaluations: the healthy run has no detection series, alert or notification.
      Thread.sleep(3000);
      assertThat(query(server, "flightdeck_run_detection{run=\"healthy\"}")).isEmpty();
      assertThat(query(server, "ALERTS{run=\"healthy\"}")).isEmpty();
      assertThat(query(server, "flightdeck_run_detection{run=\"hung\",kind=\"hung_rank\"}"))
          .hasSize(1);
      assertThat(received)
          .allSatisfy(
              n -> assertThat(n.path("alerts").findValuesAsText("run")).doesNotContain("healthy"));
    } finally {
      webhook.stop(0);
    }
  }

  /**
   * The detection loop follows the rules' evaluation interval when the configuration is reloaded:
   * started at an hour, its first pass (on an empty store) is its last for an hour, so a hung run
   * imported after it has no detection series until a reload brings the interval to 1 s.
   */
  @Test
  void aReloadedEvaluationIntervalPacesTheDetectionLoop() throws Exception {
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(config, "global:\n  evaluation_interval: 1h\n");
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--config.file=" + config,
            "--collector.enable=false",
            "--cockpit.detection-window=30m")) {
      server.awaitReady();
      // The first pass runs on the loop's own thread as the server starts: the run is imported
      // only once it has, so that it waits for the next pass, an hour away.
      long until = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (server.metric("flightdeck_detection_passes_total").orElse(0) < 1
          && System.nanoTime() < until) {
        Thread.sleep(50);
      }
      assertThat(server.metric("flightdeck_detection_passes_total")).hasValue(1.0);
      importRun(server, "hung", System.currentTimeMillis(), true);
      String hung = "flightdeck_run_detection{run=\"hung\",kind=\"hung_rank\"}";
      Thread.sleep(3000);
      assertThat(query(server, hung)).isEmpty();
      assertThat(server.metric("flightdeck_detection_passes_total")).hasValue(1.0);

      Files.writeString(config, "global:\n  evaluation_interval: 1s\n");
      assertThat(TestHttp.post(server.uri("/-/reload"), new byte[0]).statusCode()).isEqualTo(200);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      while (query(server, hung).isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(250);
      }
      assertThat(query(server, hung)).hasSize(1);
    }
  }

  /**
   * Imports a run ending at {@code nowMs}: 2 nodes × 2 GPUs, one rank per GPU. A hung run's ranks
   * stop stepping {@link #HANG_S} before the end, its node-1 GPU 1 idles while the others spin.
   */
  private static void importRun(
      FlightdeckServerProcess server, String run, long nowMs, boolean hang) throws Exception {
    Random random = new Random(run.hashCode());
    StringBuilder text = new StringBuilder();
    double step = 0;
    for (long s = 0; s <= RUN_S; s += EVERY_S) {
      long t = nowMs - (RUN_S - s) * 1000;
      boolean hanging = hang && s >= RUN_S - HANG_S;
      for (int node = 0; node < 2; node++) {
        String host = run + "-node-" + node;
        for (int gpu = 0; gpu < 2; gpu++) {
          String rank =
              "run=\"%s\",job=\"%s\",instance=\"%s:808%d\",Hostname=\"%s\",rank=\"%d\",local_rank=\"%d\""
                  .formatted(run, run, host, gpu, host, node * 2 + gpu, gpu);
          double loss = 1 + 2 * Math.exp(-step / 2000) + 0.02 * random.nextGaussian();
          line(text, "llm_train_step", rank, Math.floor(step), t);
          line(text, "llm_train_loss", rank, loss, t);
          line(text, "llm_train_samples_per_second", rank, hanging ? 0 : 7.5, t);
          String dcgm =
              "job=\"dcgm\",instance=\"%s:9400\",Hostname=\"%s\",gpu=\"%d\",UUID=\"GPU-%s-%d\""
                  .formatted(host, host, gpu, host, gpu);
          boolean stuck = hanging && node == 1 && gpu == 1;
          double util =
              hanging ? (stuck ? 0 : 100) : Math.min(100, 93 + 2.5 * random.nextGaussian());
          double power = stuck ? 96 : 600 + 12 * random.nextGaussian();
          line(text, "DCGM_FI_DEV_GPU_UTIL", dcgm, Math.round(util), t);
          line(text, "DCGM_FI_DEV_POWER_USAGE", dcgm, power, t);
          line(text, "DCGM_FI_DEV_GPU_TEMP", dcgm, 65, t);
        }
      }
      if (!hanging) {
        step += 0.5 * EVERY_S;
      }
    }
    var response =
        TestHttp.post(
            server.uri("/api/v1/import/prometheus"),
            text.toString().getBytes(StandardCharsets.UTF_8));
    assertThat(response.statusCode()).as(response.body()).isEqualTo(204);
  }

  private static void line(StringBuilder text, String name, String labels, double v, long t) {
    text.append(name).append('{').append(labels).append("} ").append(v).append(' ').append(t);
    text.append('\n');
  }

  private static JsonNode query(FlightdeckServerProcess server, String promql) throws Exception {
    String q = URLEncoder.encode(promql, StandardCharsets.UTF_8);
    return JSON.readTree(TestHttp.get(server.uri("/api/v1/query?query=" + q)).body())
        .path("data")
        .path("result");
  }

  private static JsonNode awaitFiring(List<JsonNode> received, String alertname, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      for (JsonNode n : received) {
        if (n.path("status").asText().equals("firing")
            && n.path("alerts").findValuesAsText("alertname").contains(alertname)) {
          return n;
        }
      }
      Thread.sleep(100);
    }
    throw new AssertionError("no firing " + alertname + " within " + wait + ": " + received);
  }
}
