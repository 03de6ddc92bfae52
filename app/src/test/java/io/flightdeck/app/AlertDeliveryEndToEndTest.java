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
 * The two overnight stories end to end: a Python training job (Debian's python3-prometheus-client)
 * is scraped every second, the shipped training rule pack is loaded, and a webhook receiver listens
 * on 127.0.0.1. When the loss turns NaN, or the step counter stops, the notification arrives once,
 * within the rule's own windows plus scrape interval + evaluation interval + 10 s; when training
 * recovers a resolved notification follows.
 */
class AlertDeliveryEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path PACK =
      Path.of(System.getProperty("flightdeck.root"), "rules", "packs", "training.yml");
  private static final Path SCRIPTS =
      Path.of(System.getProperty("flightdeck.root"), "app", "src", "test", "resources", "scrape");
  private static final Path NAN_SCRIPT = SCRIPTS.resolve("nan_training_job.py");
  private static final Path STALL_SCRIPT = SCRIPTS.resolve("stalling_training_job.py");
  private static final Duration DEADLINE = Duration.ofSeconds(1 + 1 + 10);

  @TempDir Path dir;

  @Test
  void nanLossIsNotifiedOnceWithinSecondsAndResolvedAfterRecovery() throws Exception {
    try (Story story = new Story(NAN_SCRIPT, Files.readString(PACK))) {
      long diverged = System.nanoTime();
      Files.createFile(story.flag);
      JsonNode firing = story.awaitNotification("firing", DEADLINE);
      long latency = story.receivedAt(firing) - diverged;
      assertThat(firing.path("alerts").get(0).path("labels").path("alertname").asText())
          .isEqualTo("TrainingLossNotFinite");
      assertThat(firing.path("alerts").get(0).path("labels").path("job").asText())
          .isEqualTo("trainer");
      System.out.printf("NaN loss notified %.1f s after the loss turned NaN%n", latency / 1e9);

      // Still diverged a few evaluations later: no second firing notification.
      Thread.sleep(4000);
      assertThat(story.received.stream().filter(n -> n.path("status").asText().equals("firing")))
          .hasSize(1);

      // The cockpit's notification log names the delivery and its result.
      JsonNode log =
          JSON.readTree(TestHttp.get(story.server.uri("/api/v1/notifications")).body())
              .path("data");
      assertThat(log).isNotEmpty();
      JsonNode delivery = log.get(log.size() - 1);
      assertThat(delivery.path("receiver").asText()).isEqualTo("team");
      assertThat(delivery.path("integration").asText()).isEqualTo("webhook");
      assertThat(delivery.path("ok").asBoolean()).isTrue();
      assertThat(delivery.path("alerts").get(0).path("alertname").asText())
          .isEqualTo("TrainingLossNotFinite");

      Files.delete(story.flag);
      JsonNode resolved = story.awaitNotification("resolved", Duration.ofSeconds(30));
      assertThat(resolved.path("alerts").get(0).path("status").asText()).isEqualTo("resolved");
    }
  }

  /**
   * The hung-rank story: the step counter stops while the job stays up. The shipped rule looks at
   * 10 minutes without a step after an hour of progress and waits 5 minutes more; here the same
   * rule runs with its windows scaled to seconds (10m to 10s, 1h to 60s, for 5m to 5s), so the
   * notification is due 15 s after the stall plus scrape interval + evaluation interval + 10 s.
   */
  @Test
  void aStalledStepCounterIsNotifiedOnceAndResolvedWhenTrainingMovesAgain() throws Exception {
    try (Story story = new Story(STALL_SCRIPT, stallRuleInSeconds(Files.readString(PACK)))) {
      // The rule needs a minute of history with more than 18 steps before the stall window.
      Thread.sleep(25_000);
      long stalled = System.nanoTime();
      Files.createFile(story.flag);
      JsonNode firing = story.awaitNotification("firing", Duration.ofSeconds(15).plus(DEADLINE));
      long latency = story.receivedAt(firing) - stalled;
      JsonNode alert = firing.path("alerts").get(0);
      assertThat(alert.path("labels").path("alertname").asText()).isEqualTo("TrainingStalled");
      assertThat(alert.path("labels").path("severity").asText()).isEqualTo("critical");
      assertThat(alert.path("annotations").path("summary").asText()).contains("127.0.0.1:");
      System.out.printf(
          "stalled step notified %.1f s after the step stopped (rule windows: 15 s)%n",
          latency / 1e9);

      Thread.sleep(4000);
      assertThat(story.received.stream().filter(n -> n.path("status").asText().equals("firing")))
          .as("one firing notification while the stall lasts")
          .hasSize(1);

      Files.delete(story.flag);
      JsonNode resolved = story.awaitNotification("resolved", Duration.ofSeconds(30));
      assertThat(resolved.path("alerts").get(0).path("labels").path("alertname").asText())
          .isEqualTo("TrainingStalled");
    }
  }

  /** The pack with only TrainingStalled kept among the alerts, its durations scaled to seconds. */
  private static String stallRuleInSeconds(String pack) {
    int start = pack.indexOf("  - alert: TrainingStalled");
    int end = pack.indexOf("  - alert: ", start + 1);
    int firstAlert = pack.indexOf("  - alert: ");
    String rule =
        pack.substring(start, end)
            .replace("[10m]", "[10s]")
            .replace("[1h] offset 10m", "[60s] offset 10s")
            .replace("for: 5m", "for: 5s");
    assertThat(rule).contains("[10s]", "[60s] offset 10s", "for: 5s");
    return pack.substring(0, firstAlert) + rule;
  }

  /**
   * One story's cast: a webhook receiver on 127.0.0.1, the Python training job, and a server that
   * scrapes the job every second and evaluates the given rule pack every second.
   */
  private final class Story implements AutoCloseable {
    final List<JsonNode> received = new CopyOnWriteArrayList<>();
    private final List<Long> receivedAt = new CopyOnWriteArrayList<>();
    final Path flag = dir.resolve("flag");
    private final HttpServer webhook;
    private final Process trainer;
    final FlightdeckServerProcess server;

    Story(Path script, String pack) throws Exception {
      webhook = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
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
      trainer =
          new ProcessBuilder(
                  "/usr/bin/python3",
                  script.toString(),
                  Integer.toString(trainerPort),
                  flag.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("trainer.log").toFile())
              .start();
      Path rules = dir.resolve("pack.yml");
      Files.writeString(rules, pack);
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
              .formatted(rules, trainerPort, webhook.getAddress().getPort()));
      server =
          FlightdeckServerProcess.start(
              dir.resolve("data"),
              Files.createFile(dir.resolve("server.log")),
              "--config.file=" + config);
      server.awaitReady();
      awaitUp(server);
    }

    long receivedAt(JsonNode notification) {
      return receivedAt.get(received.indexOf(notification));
    }

    JsonNode awaitNotification(String status, Duration wait) throws InterruptedException {
      return AlertDeliveryEndToEndTest.awaitNotification(received, status, wait);
    }

    @Override
    public void close() throws Exception {
      try {
        server.close();
      } finally {
        trainer.destroy();
        trainer.waitFor(10, TimeUnit.SECONDS);
        webhook.stop(0);
      }
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
