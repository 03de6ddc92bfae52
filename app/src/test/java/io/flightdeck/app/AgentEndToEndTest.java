package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flightdeck agent} as a process, with the stub NVML, writing into a real server. */
class AgentEndToEndTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  @TempDir Path dir;

  @Test
  void servesHostAndGpuMetricsAndRemoteWritesThemIntoAFlightdeckServer() throws Exception {
    Path library = StubNvmlLibrary.build(Files.createDirectories(dir.resolve("nvml")));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log"))) {
      server.awaitReady();
      try (AgentProcess agent =
          AgentProcess.start(
              dir.resolve("agent.log"),
              "--collector.nvml.library=" + library,
              "--collector.interval=1s",
              "--remote-write.url=" + server.uri("/api/v1/write"),
              "--remote-write.queue-dir=" + dir.resolve("queue"))) {
        agent.awaitReady();
        String metrics = agent.metrics();
        assertThat(metrics)
            .contains("# TYPE DCGM_FI_DEV_GPU_UTIL gauge")
            .contains("DCGM_FI_DEV_GPU_UTIL{")
            .contains("UUID=\"GPU-00000000-0000-0000-0000-000000000000\"")
            .contains("node_cpu_seconds_total{cpu=\"0\",mode=\"user\"}")
            .contains("node_filesystem_size_bytes{")
            .contains(
                "flightdeck_process_resident_memory_bytes{comm=\"java\",pid=\""
                    + ProcessHandle.current().pid()
                    + "\"}")
            .contains("flightdeck_remote_storage_samples_pending{")
            .contains("flightdeck_agent_collections_total");

        String gpu0 = "DCGM_FI_DEV_GPU_UTIL{job=\"flightdeck-agent\",gpu=\"0\"}";
        Await.until(
            TIMEOUT,
            "the agent's samples in the server",
            () -> InstantQuery.scalar(server.uri("/"), gpu0) == 87.0);
        JsonNode series = InstantQuery.result(server.uri("/"), gpu0).get(0).path("metric");
        assertThat(series.path("instance").asText()).endsWith(":" + agent.port());
        assertThat(series.path("modelName").asText()).isEqualTo("NVIDIA H100 80GB HBM3");
        assertThat(
                InstantQuery.scalar(
                    server.uri("/"),
                    "count(node_cpu_seconds_total{job=\"flightdeck-agent\",mode=\"user\"})"))
            .isEqualTo(Runtime.getRuntime().availableProcessors());
        Await.until(
            TIMEOUT,
            "the sent samples in the agent's metrics",
            () -> sentSamples(agent.metrics()) > 0);

        assertThat(agent.stop()).as("exit code after SIGTERM").isZero();
        assertThat(agent.log()).contains("agent stopped in");
      }
    }
  }

  @Test
  void sendsToTheRemoteWriteSectionOfAConfigFileWithItsRelabelling() throws Exception {
    Path library = StubNvmlLibrary.build(Files.createDirectories(dir.resolve("nvml")));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log"))) {
      server.awaitReady();
      Path config = dir.resolve("agent.yml");
      Files.writeString(
          config,
          """
          remote_write:
            - url: %s
              name: central
              authorization:
                credentials: t0ken
              write_relabel_configs:
                - source_labels: [__name__]
                  regex: DCGM_.*
                  action: keep
              queue_config:
                batch_send_deadline: 500ms
          """
              .formatted(server.uri("/api/v1/write")));
      try (AgentProcess agent =
          AgentProcess.start(
              dir.resolve("agent.log"),
              "--collector.nvml.library=" + library,
              "--collector.interval=1s",
              "--config.file=" + config,
              "--remote-write.queue-dir=" + dir.resolve("queue"))) {
        agent.awaitReady();
        Await.until(
            TIMEOUT,
            "GPU samples in the server",
            () -> InstantQuery.scalar(server.uri("/"), "DCGM_FI_DEV_GPU_UTIL{gpu=\"1\"}") == 12.0);
        assertThat(InstantQuery.result(server.uri("/"), "node_cpu_seconds_total"))
            .as("dropped by write_relabel_configs")
            .isEmpty();
        assertThat(agent.metrics())
            .contains("flightdeck_remote_storage_samples_pending{remote_name=\"central\"");
        assertThat(dir.resolve("queue/central/position")).exists();
        assertThat(agent.stop()).isZero();
      }
    }
  }

  @Test
  void whatSigtermLeavesQueuedIsSentByTheNextStart() throws Exception {
    int port = LocalPorts.free();
    String url = "--remote-write.url=http://127.0.0.1:" + port + "/api/v1/write";
    String queue = "--remote-write.queue-dir=" + dir.resolve("queue");
    String missingNvml = "--collector.nvml.library=" + dir.resolve("missing.so");
    long firstRunCollections;
    try (AgentProcess agent =
        AgentProcess.start(
            dir.resolve("agent1.log"), missingNvml, "--collector.interval=1s", url, queue)) {
      agent.awaitReady();
      Await.until(
          TIMEOUT,
          "three collections queued",
          () -> agent.metrics().contains("flightdeck_agent_collections_total 3"));
      assertThat(agent.stop()).isZero();
      assertThat(agent.log()).contains("stay queued in");
      firstRunCollections = collections(agent.log());
    }
    try (FlightdeckServerProcess server =
            FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log"), port);
        AgentProcess agent =
            AgentProcess.start(
                dir.resolve("agent2.log"), missingNvml, "--collector.interval=1h", url, queue)) {
      server.awaitReady();
      agent.awaitReady();
      // One collection in this run (interval 1h): every other load1 sample comes from the queue.
      // The runs listen on different ports, so their samples carry different instance labels.
      String query = "sum(count_over_time(node_load1{job=\"flightdeck-agent\"}[10m]))";
      Await.until(
          TIMEOUT,
          "the first run's samples in the server",
          () -> InstantQuery.scalar(server.uri("/"), query) >= firstRunCollections + 1);
      assertThat(InstantQuery.scalar(server.uri("/"), query)).isEqualTo(firstRunCollections + 1);
      assertThat(agent.stop()).isZero();
    }
  }

  /** The count in the log's "agent stopped in N ms after M collections" line. */
  private static long collections(String log) {
    Matcher matcher =
        Pattern.compile("agent stopped in \\d+ ms after (\\d+) collections").matcher(log);
    if (!matcher.find()) {
      throw new AssertionError("no stop line in\n" + log);
    }
    return Long.parseLong(matcher.group(1));
  }

  @Test
  void withoutNvmlItSaysSoOnceAndServesHostMetrics() throws Exception {
    try (AgentProcess agent =
        AgentProcess.start(
            dir.resolve("agent.log"),
            "--collector.nvml.library=" + dir.resolve("missing/libnvidia-ml.so.1"),
            "--collector.interval=1s")) {
      agent.awaitReady();
      Await.until(
          TIMEOUT,
          "three collections",
          () -> agent.metrics().contains("flightdeck_agent_collections_total 3"));
      String metrics = agent.metrics();
      assertThat(metrics).contains("node_cpu_seconds_total").doesNotContain("DCGM_FI_");
      String log = agent.log();
      assertThat(log.lines().filter(l -> l.contains("no GPU metrics; host metrics go on")).count())
          .as("lines about the missing NVML in\n%s", log)
          .isEqualTo(1);
      assertThat(agent.stop()).isZero();
    }
  }

  @Test
  void withoutRemoteWriteEachScrapeServesAReadingTakenForIt() throws Exception {
    Path procfs = Files.createDirectories(dir.resolve("proc"));
    Files.writeString(procfs.resolve("loadavg"), "0.50 0.40 0.30 1/100 1234\n");
    try (AgentProcess agent =
        AgentProcess.start(
            dir.resolve("agent.log"),
            "--path.procfs=" + procfs,
            "--collector.nvml.library=" + dir.resolve("missing/libnvidia-ml.so.1"),
            "--collector.interval=1h")) {
      agent.awaitReady();
      String first = agent.metrics();
      Files.writeString(procfs.resolve("loadavg"), "2.25 0.40 0.30 1/100 1234\n");
      String second = agent.metrics();

      // With an interval of an hour, only a collection per scrape can see the new load.
      assertThat(first)
          .contains("\nnode_load1 0.5\n")
          .contains("\nflightdeck_agent_collections_total 1\n");
      assertThat(second)
          .contains("\nnode_load1 2.25\n")
          .contains("\nflightdeck_agent_collections_total 2\n");
      assertThat(agent.stop()).isZero();
    }
  }

  @Test
  void refusesAnIntervalBelowOneSecond() throws Exception {
    FlightdeckCli.Result result = FlightdeckCli.run("agent", "--collector.interval=500ms");
    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stderr()).contains("--collector.interval=500ms is below the minimum of 1s");
  }

  private static double sentSamples(String metrics) {
    return metrics
        .lines()
        .filter(l -> l.startsWith("flightdeck_remote_storage_samples_total{"))
        .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
        .sum();
  }
}
