package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** A real prometheus_client pushes to the server's Pushgateway API; PromQL reads it back. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PushEndToEndTest {
  @TempDir static Path dir;

  private FlightdeckServerProcess server;

  @BeforeAll
  void start() throws Exception {
    server =
        FlightdeckServerProcess.start(dir.resolve("data"), dir.resolve("server.log")).awaitReady();
  }

  @AfterAll
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private void pushWithPython(String mode) throws Exception {
    PushJobScript.run(dir, server.port(), mode);
  }

  @Test
  void aPushedGroupIsQueryableAndAPutEndsTheSeriesItDrops() throws Exception {
    pushWithPython("full");

    assertThat(InstantQuery.scalar(server.uri(""), "train_loss{job=\"trainer\",run=\"lora/7\"}"))
        .isEqualTo(0.42);
    assertThat(InstantQuery.scalar(server.uri(""), "train_steps_total{job=\"trainer\"}"))
        .isEqualTo(5);
    assertThat(
            InstantQuery.scalar(server.uri(""), "gpu_memory_used_mb{job=\"trainer\",device=\"1\"}"))
        .isEqualTo(2048);

    pushWithPython("loss-only");

    assertThat(InstantQuery.scalar(server.uri(""), "train_loss{job=\"trainer\"}")).isEqualTo(0.40);
    JsonNode dropped =
        InstantQuery.result(
            server.uri(""),
            "{job=\"trainer\",__name__!~\"train_loss|push_time_seconds|push_failure_time_seconds\"}");
    assertThat(dropped).as(dropped.toString()).isEmpty();
  }

  @Test
  void aPushWithATimestampIsRefusedNamingTheLineAndRecordedAsAFailure() throws Exception {
    HttpResponse<String> refused =
        TestHttp.post(
            server.uri("/metrics/job/stamped"),
            "eval_loss 0.3\neval_loss{split=\"test\"} 0.2 1700000000000\n"
                .getBytes(StandardCharsets.UTF_8));

    assertThat(refused.statusCode()).isEqualTo(400);
    assertThat(refused.body())
        .isEqualTo(
            "pushed metrics are invalid or inconsistent with existing metrics: pushed metrics must"
                + " not have timestamps, line 2 has one:"
                + " \"eval_loss{split=\"test\"} 0.2 1700000000000\"\n");
    assertThat(InstantQuery.result(server.uri(""), "eval_loss")).isEmpty();
    assertThat(InstantQuery.scalar(server.uri(""), "push_failure_time_seconds{job=\"stamped\"}"))
        .isGreaterThan(1.7e9);
  }

  @Test
  void importTakesABatchOfLinesAndRejectsABadOneWithItsLine() throws Exception {
    HttpResponse<String> ok =
        TestHttp.post(
            server.uri("/api/v1/import/prometheus?extra_label=job=batch"),
            "eval_accuracy{run=\"a\"} 0.9\n".getBytes(StandardCharsets.UTF_8));
    assertThat(ok.statusCode()).as(ok.body()).isEqualTo(204);
    assertThat(InstantQuery.scalar(server.uri(""), "eval_accuracy{job=\"batch\",run=\"a\"}"))
        .isEqualTo(0.9);

    HttpResponse<String> bad =
        TestHttp.post(
            server.uri("/api/v1/import/prometheus"),
            "eval_f1 0.8\neval_f1{ 0.7\n".getBytes(StandardCharsets.UTF_8));
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(bad.body())
        .isEqualTo(
            "text format parsing error: expected label name, got \"0.7\" [line=2, column=10]\n");
    assertThat(InstantQuery.result(server.uri(""), "eval_f1")).isEmpty();
  }
}
