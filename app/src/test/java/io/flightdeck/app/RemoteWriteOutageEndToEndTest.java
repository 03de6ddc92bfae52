package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.QueueConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.remote.RemoteWriteSender;
import io.flightdeck.remote.RemoteWriteSenderOptions;
import io.flightdeck.storage.Appender;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote-write sender against real stores that go away for a while: every sample written while
 * the store was down arrives once it is back, and none twice.
 */
class RemoteWriteOutageEndToEndTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);
  private static final int SERIES = 5;
  private static final int ROUNDS_PER_PHASE = 20;
  private static final int TOTAL = 3 * ROUNDS_PER_PHASE * SERIES;
  private static final QueueConfig QUICK =
      new QueueConfig(
          10_000,
          1,
          1,
          2_000,
          Duration.ofMillis(200),
          Duration.ofMillis(50),
          Duration.ofMillis(500));

  @TempDir Path dir;

  /** One sample per series per round, a second apart, five minutes in the past. */
  private final long base = System.currentTimeMillis() - Duration.ofMinutes(5).toMillis();

  private RemoteWriteSender sender(URI url) throws Exception {
    RemoteWriteSender sender =
        new RemoteWriteSender(
            new RemoteWriteSenderOptions(
                new RemoteWriteConfig(
                    url,
                    "outage",
                    Duration.ofSeconds(5),
                    Map.of(),
                    HttpClientConfig.DEFAULT,
                    List.of(),
                    QUICK),
                dir.resolve("queue"),
                RemoteWriteSenderOptions.DEFAULT_MAX_QUEUE_BYTES,
                Duration.ofSeconds(1)));
    sender.start();
    return sender;
  }

  private void writeRounds(RemoteWriteSender sender, int from, int to) throws Exception {
    for (int round = from; round < to; round++) {
      Appender appender = sender.appender();
      for (int s = 0; s < SERIES; s++) {
        appender.append(
            0,
            Labels.of("__name__", "outage_test_value", "series", Integer.toString(s)),
            base + round * 1000L,
            round * 10 + s);
      }
      appender.commit();
      Thread.sleep(20);
    }
  }

  private static void assertEverySampleOnce(JsonNode counts) {
    assertThat(counts).hasSize(SERIES);
    for (JsonNode series : counts) {
      assertThat(series.path("value").get(1).asText())
          .as("samples of %s", series.path("metric"))
          .isEqualTo(Integer.toString(3 * ROUNDS_PER_PHASE));
    }
  }

  @Test
  void victoriaMetricsStoppedAndRestartedLosesNothingAndGetsNothingTwice() throws Exception {
    int port = LocalPorts.free();
    Path vmDir = dir.resolve("vm");
    VictoriaMetricsProcess vm = VictoriaMetricsProcess.start(vmDir, port).awaitReady();
    RemoteWriteSender sender = sender(vm.uri("/api/v1/write"));
    try {
      writeRounds(sender, 0, ROUNDS_PER_PHASE);
      Await.until(TIMEOUT, "the first phase sent", () -> sender.pendingSamples() == 0);
      vm.close();

      writeRounds(sender, ROUNDS_PER_PHASE, 2 * ROUNDS_PER_PHASE);
      Await.until(TIMEOUT, "a failed send being retried", () -> sender.retries() > 0);
      assertThat(sender.pendingSamples()).isGreaterThan(0);

      vm = VictoriaMetricsProcess.start(vmDir, port).awaitReady();
      writeRounds(sender, 2 * ROUNDS_PER_PHASE, 3 * ROUNDS_PER_PHASE);
      Await.until(TIMEOUT, "the queue to drain", () -> sender.pendingSamples() == 0);
      assertThat(sender.samplesSent()).isEqualTo(TOTAL);
      assertThat(sender.samplesFailed() + sender.samplesDropped()).isZero();

      VictoriaMetricsProcess restarted = vm;
      String query = "count_over_time(outage_test_value[10m])";
      Await.until(
          TIMEOUT,
          "every sample searchable in VictoriaMetrics",
          () ->
              InstantQuery.result(restarted.uri("/"), "sum(" + query + ")", "&nocache=1")
                  .path(0)
                  .path("value")
                  .path(1)
                  .asText()
                  .equals(Integer.toString(TOTAL)));
      assertEverySampleOnce(InstantQuery.result(vm.uri("/"), query, "&nocache=1"));
    } finally {
      sender.close();
      vm.close();
    }
  }

  @Test
  void prometheusStoppedWhileTheSenderRestartsLosesNothingAndGetsNothingTwice() throws Exception {
    Path promDir = dir.resolve("prometheus");
    PrometheusProcess prometheus = PrometheusProcess.startReceiver(promDir);
    prometheus.awaitReady();
    RemoteWriteSender sender = sender(prometheus.uri("/api/v1/write"));
    try {
      writeRounds(sender, 0, ROUNDS_PER_PHASE);
      Await.until(TIMEOUT, "the first phase sent", () -> sender.pendingSamples() == 0);
      prometheus.close();

      writeRounds(sender, ROUNDS_PER_PHASE, 2 * ROUNDS_PER_PHASE);
      Await.until(TIMEOUT, "a failed send being retried", () -> sender.retries() > 0);
      long sentBefore = sender.samplesSent();
      sender.close(); // the agent restarts too: the queue on disk carries the backlog over
      assertThat(sentBefore).isEqualTo(ROUNDS_PER_PHASE * SERIES);

      // Prometheus comes back on the same data, on a new port the new sender is told about.
      prometheus = PrometheusProcess.startReceiver(promDir);
      prometheus.awaitReady();
      RemoteWriteSender second = sender(prometheus.uri("/api/v1/write"));
      try {
        assertThat(second.pendingSamples()).isEqualTo(ROUNDS_PER_PHASE * SERIES);
        writeRounds(second, 2 * ROUNDS_PER_PHASE, 3 * ROUNDS_PER_PHASE);
        Await.until(TIMEOUT, "the queue to drain", () -> second.pendingSamples() == 0);
        assertThat(second.samplesSent()).isEqualTo(2 * ROUNDS_PER_PHASE * SERIES);
      } finally {
        second.close();
      }
      assertEverySampleOnce(prometheus.query("count_over_time(outage_test_value[10m])"));
    } finally {
      sender.close();
      prometheus.close();
    }
  }
}
