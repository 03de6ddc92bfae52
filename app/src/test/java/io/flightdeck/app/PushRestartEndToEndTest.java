package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pushed groups survive a crash: the real prometheus_client pushes two groups, the server is killed
 * with SIGKILL and started again on the same data directory, and a DELETE and a PUT that drops
 * series then end series pushed before the restart, as PromQL shows.
 */
class PushRestartEndToEndTest {
  private static final String FIRST = "run=\"lora/7\"";
  private static final String SECOND = "run=\"lora/8\"";

  @TempDir Path dir;
  private FlightdeckServerProcess server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private FlightdeckServerProcess start() throws Exception {
    return FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log"))
        .awaitReady();
  }

  private double query(String promql) throws Exception {
    return InstantQuery.scalar(server.uri(""), promql);
  }

  @Test
  void aDeleteAndAPutAfterAKillEndTheSeriesPushedBeforeIt() throws Exception {
    server = start();
    double beforePush = System.currentTimeMillis() / 1000.0;
    PushJobScript.run(dir, server.port(), "full", "lora/7");
    PushJobScript.run(dir, server.port(), "full", "lora/8");
    double afterPush = System.currentTimeMillis() / 1000.0;

    assertThat(query("train_steps_total{job=\"trainer\"," + FIRST + "}")).isEqualTo(5);
    assertThat(query("gpu_memory_used_mb{device=\"1\"," + SECOND + "}")).isEqualTo(2048);
    assertThat(query("push_time_seconds{job=\"trainer\"," + SECOND + "}"))
        .isBetween(beforePush, afterPush);

    server.kill();
    server = start();

    assertThat(query("train_steps_total{job=\"trainer\"," + FIRST + "}")).isEqualTo(5);
    assertThat(query("gpu_memory_used_mb{device=\"0\"," + FIRST + "}")).isEqualTo(1024);
    assertThat(query("train_loss{" + SECOND + "}")).isEqualTo(0.42);

    PushJobScript.run(dir, server.port(), "delete", "lora/8");
    PushJobScript.run(dir, server.port(), "loss-only", "lora/7");

    assertThat(query("train_loss{job=\"trainer\"," + FIRST + "}")).isEqualTo(0.40);
    JsonNode dropped =
        InstantQuery.result(
            server.uri(""),
            "{" + FIRST + ",__name__!~\"train_loss|push_time_seconds|push_failure_time_seconds\"}");
    assertThat(dropped).as(dropped.toString()).isEmpty();
    JsonNode deleted = InstantQuery.result(server.uri(""), "{" + SECOND + "}");
    assertThat(deleted).as(deleted.toString()).isEmpty();
    assertThat(query("push_failure_time_seconds{" + FIRST + "}")).isZero();
  }

  @Test
  void aTruncatedPushFileIsReportedAndTheGroupsBeforeTheDamageAreKept() throws Exception {
    server = start();
    PushJobScript.run(dir, server.port(), "full", "lora/7");
    PushJobScript.run(dir, server.port(), "full", "lora/8");
    server.kill();
    Path file = dir.resolve("data/push/groups.fdpg");
    byte[] bytes = Files.readAllBytes(file);
    Files.write(file, Arrays.copyOf(bytes, bytes.length - 3));

    server = start();

    assertThat(server.log())
        .contains("push group file " + file + " is damaged at offset ")
        .contains(": group 2 of 2: truncated, record of ");
    PushJobScript.run(dir, server.port(), "loss-only", "lora/7");
    JsonNode dropped = InstantQuery.result(server.uri(""), "gpu_memory_used_mb{" + FIRST + "}");
    assertThat(dropped).as(dropped.toString()).isEmpty();
  }
}
