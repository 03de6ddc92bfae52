package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The runtime {@code bench/gpu-check.sh} takes to GPU machines without Java: built by {@code
 * bench/gpu-check-runtime.sh}, under 60 MB, and enough for the agent to collect GPU and host
 * metrics through JNA and send them with remote write.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class GpuCheckRuntimeTest {
  private static final Path SCRIPT = Path.of("..", "bench", "gpu-check-runtime.sh");

  @TempDir Path dir;

  @Test
  void theJlinkRuntimeIsSmallAndRunsTheAgent() throws Exception {
    Path runtime = dir.resolve("runtime");
    Process build =
        new ProcessBuilder(SCRIPT.toString(), "--output", runtime.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("build.log").toFile())
            .start();
    assertThat(build.waitFor(3, TimeUnit.MINUTES)).isTrue();
    assertThat(build.exitValue()).as(Files.readString(dir.resolve("build.log"))).isZero();
    assertThat(sizeOf(runtime)).isLessThan(60L * 1024 * 1024);

    Path library = StubNvmlLibrary.build(Files.createDirectories(dir.resolve("nvml")));
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log"))) {
      server.awaitReady();
      try (AgentProcess agent =
          AgentProcess.start(
              runtime.resolve("bin/java"),
              dir.resolve("agent.log"),
              "--collector.nvml.library=" + library,
              "--collector.interval=1s",
              "--remote-write.url=" + server.uri("/api/v1/write"),
              "--remote-write.queue-dir=" + dir.resolve("queue"))) {
        agent.awaitReady();
        assertThat(agent.metrics())
            .contains("DCGM_FI_DEV_GPU_UTIL{")
            .contains("node_cpu_seconds_total{");
        Await.until(
            java.time.Duration.ofSeconds(90),
            "the agent's GPU samples to reach the server",
            () ->
                InstantQuery.scalar(
                        server.uri("/"), "DCGM_FI_DEV_GPU_UTIL{job=\"flightdeck-agent\",gpu=\"0\"}")
                    == 87.0);
        assertThat(agent.stop()).isZero();
      }
    }
  }

  private static long sizeOf(Path dir) throws Exception {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
    }
  }
}
