package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The overnight-NaN story end to end: a Python training job (Debian's python3-prometheus-client) is
 * scraped every second, the shipped training rule pack is loaded, and a webhook receiver listens on
 * 127.0.0.1. When the loss turns NaN the notification arrives within scrape interval + evaluation
 * interval + 10 s, once; when the loss recovers a resolved notification follows.
 */
class AlertDeliveryEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PACK =
      Path.of(System.getProperty("flightdeck.root"), "rules", "packs", "training.yml");
  private static final Path SCRIPT =
      Path.of(System.getProperty("flightdeck.root"), "app", "src", "test", "resources", "scrape")
          .resolve("nan_training_job.py");
  private static final Duration DEADLINE = Duration.ofSeconds(1 + 1 + 10);

  @TempDir Path dir;

  @Test
  void nanLossIsNotifiedOnceWithinSecondsAndResolvedAfterRecovery() throws Exception {
    List<JsonNode> received = new CopyOnWriteArrayList<>();
    List<Long> receivedAt = new CopyOnWriteArrayList<>();
    HttpServer webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    webhook.createContext(
        "/hook",
        exchange -> {
          received.add(JSON.readTree(exchange.getRequestBody().readAllBytes()));
          receivedAt.add(System.nanoTime());
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    webhook.start();
    int trainerPort = LocalPorts.free();
    Path flag = dir.resolve("diverged");
    Process trainer =
        new ProcessBuilder(
                "/usr/bin/python3",
                SCRIPT.toString(),
                Integer.toString(trainerPort),
                flag.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("trainer.log").toFile())
            .start();
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        rule_files:
          - %s
        scrape_configs:
          - job_name: trainer
            static_configs:
              - targets: ['127.0.0.1:%d']
        notifications:
          route:
            receiver: team
            group_by: [alertname]
            group_wait: 0s
            group_interval: 1s
            repeat_interval: 1h
          receivers:
            - name: team
              webhook_configs:
                - url: http://127.0.0.1:%d/hook
        """
            .formatted(PACK, trainerPort, webhook.getAddress().getPort()));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--config.file=" + config)) {
      server.awaitReady();
      awaitUp(server);

      long diverged = System.nanoTime();
      Files.createFile(flag);
      JsonNode firing = awaitNotification(received, "firing", DEADLINE);
      long latency = receivedAt.get(received.indexOf(firing)) - diverged;
      assertThat(firing.path("alerts").get(0).path("labels").path("alertname").asText())
          .isEqualTo("TrainingLossNotFinite");
      assertThat(firing.path("alerts").get(0).path("labels").path("job").asText())
          .isEqualTo("trainer");
      System.out.printf("NaN loss notified %.1f s after the loss turned NaN%n", latency / 1e9);

      // Still diverged a few evaluations later: no second firing notification.
      Thread.sleep(4000);
      assertThat(received.stream().filter(n -> n.path("status").asText().equals("firing")))
          .hasSize(1);

      Files.delete(flag);
      JsonNode resolved = awaitNotification(received, "resolved", Duration.ofSeconds(30));
      assertThat(resolved.path("alerts").get(0).path("status").asText()).isEqualTo("resolved");
    } finally {
      trainer.destroy();
      trainer.waitFor(10, TimeUnit.SECONDS);
      webhook.stop(0);
    }
  }

  private static void awaitUp(FlightdeckServerProcess server) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      JsonNode result =
          JSON.readTree(TestHttp.get(server.uri("/api/v1/query?query=up%3D%3D1")).body())
              .path("data")
              .path("result");
      if (result.size() == 1) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the training job was not scraped within 30 s");
  }

  private static JsonNode awaitNotification(List<JsonNode> received, String status, Duration wait)
      throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    while (System.nanoTime() < deadline) {
      for (JsonNode n : received) {
        if (n.path("status").asText().equals(status)) {
          return n;
        }
      }
      Thread.sleep(50);
    }
    throw new AssertionError("no " + status + " notification within " + wait + ": " + received);
  }
}
