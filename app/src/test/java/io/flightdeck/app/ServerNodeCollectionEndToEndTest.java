package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A single machine without an agent: the server collects its own node's host and GPU metrics
 * ({@code --collector.enable}, on by default) through the real JNA path to a stub NVML built with
 * gcc, and stores them under the agent's labels.
 */
class ServerNodeCollectionEndToEndTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void theServerStoresItsOwnHostAndGpuMetrics() throws Exception {
    Path library = StubNvmlLibrary.build(Files.createDirectories(dir.resolve("nvml")));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            dir.resolve("server.log"),
            "--collector.nvml.library=" + library,
            "--collector.interval=1s")) {
      server.awaitReady();
      String gpu0 = "DCGM_FI_DEV_GPU_UTIL{job=\"flightdeck-agent\",gpu=\"0\"}";
      Await.until(
          TIMEOUT, "GPU 0's utilisation", () -> InstantQuery.scalar(server.uri("/"), gpu0) == 87.0);
      JsonNode series = InstantQuery.result(server.uri("/"), gpu0).get(0).path("metric");
      assertThat(series.path("instance").asText()).endsWith(":" + server.uri("/").getPort());
      assertThat(series.path("UUID").asText())
          .isEqualTo("GPU-00000000-0000-0000-0000-000000000000");
      assertThat(
              InstantQuery.scalar(
                  server.uri("/"),
                  "count(node_cpu_seconds_total{job=\"flightdeck-agent\",mode=\"user\"})"))
          .isEqualTo(Runtime.getRuntime().availableProcessors());
      assertThat(
              InstantQuery.scalar(
                  server.uri("/"), "count(node_filesystem_size_bytes{job=\"flightdeck-agent\"})"))
          .isPositive();
      Await.until(
          TIMEOUT,
          "several collections",
          () -> InstantQuery.scalar(server.uri("/"), "count_over_time(" + gpu0 + "[1m])") >= 3);
    }
  }

  @Test
  void withoutNvmlOneLineSaysSoAndHostMetricsGoOn() throws Exception {
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            dir.resolve("server.log"),
            "--collector.nvml.library=" + dir.resolve("missing/libnvidia-ml.so.1"),
            "--collector.interval=1s")) {
      server.awaitReady();
      Await.until(
          TIMEOUT,
          "the node's load average",
          () ->
              InstantQuery.result(server.uri("/"), "node_load1{job=\"flightdeck-agent\"}").size()
                  == 1);
      assertThat(Files.readString(dir.resolve("server.log")))
          .containsOnlyOnce("NVML not available")
          .contains("no GPU metrics; host metrics go on");
      assertThat(InstantQuery.result(server.uri("/"), "{__name__=~\"DCGM_.*\"}")).isEmpty();
    }
  }

  @Test
  void collectorEnableFalseLeavesTheNodeAlone() throws Exception {
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"), dir.resolve("server.log"), "--collector.enable=false")) {
      server.awaitReady();
      // The server scrapes nothing and collects nothing: only what it was sent would be stored.
      Thread.sleep(2000);
      assertThat(InstantQuery.result(server.uri("/"), "{job=\"flightdeck-agent\"}")).isEmpty();
    }
  }
}
