package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flightdeck server --tensorboard.logdir}: a training run's event file is picked up while
 * the server runs, appended records appear within seconds, and a run created later is found too;
 * the points are queryable through the Prometheus API next to everything else.
 */
class TensorBoardLiveTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration PICKUP = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void logdirIsTailedWhileTheServerRuns() throws Exception {
    Path logdir = Files.createDirectories(dir.resolve("logs"));
    Path run = Files.createDirectories(logdir.resolve("run-a"));
    double now = System.currentTimeMillis() / 1000.0;
    Path events = run.resolve("events.out.tfevents.1.host");
    Files.write(events, new TfEventsFiles().scalar(now - 60, 1, "train/loss", 2.5f).bytes());
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--tensorboard.logdir=" + logdir,
            "--tensorboard.poll-interval=200ms")) {
      server.awaitReady();
      awaitValue(server, "tensorboard_scalar{tag=\"train/loss\",run=\"run-a\"}", 2.5);

      Files.write(
          events,
          new TfEventsFiles().scalar(now - 30, 2, "train/loss", 1.5f).bytes(),
          StandardOpenOption.APPEND);
      awaitValue(server, "tensorboard_scalar{tag=\"train/loss\",run=\"run-a\"}", 1.5);

      Path later = Files.createDirectories(logdir.resolve("run-b"));
      Files.write(
          later.resolve("events.out.tfevents.2.host"),
          new TfEventsFiles().scalar(now - 10, 1, "train/loss", 3.25f).bytes());
      awaitValue(server, "tensorboard_scalar{tag=\"train/loss\",run=\"run-b\"}", 3.25);

      assertThat(server.metric("flightdeck_tensorboard_runs")).hasValue(2.0);
    }
  }

  private static void awaitValue(FlightdeckServerProcess server, String selector, double expected)
      throws Exception {
    long deadline = System.nanoTime() + PICKUP.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      String body =
          TestHttp.get(
                  server.uri(
                      "/api/v1/query?query=" + URLEncoder.encode(selector, StandardCharsets.UTF_8)))
              .body();
      last = body;
      JsonNode result = JSON.readTree(body).path("data").path("result");
      if (result.size() == 1 && result.get(0).path("value").get(1).asDouble() == expected) {
        return;
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        selector + " did not become " + expected + " within " + PICKUP + ": " + last);
  }
}
