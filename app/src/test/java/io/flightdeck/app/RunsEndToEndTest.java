package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run endpoints on a real server: a run imported as Prometheus text (timestamps of the last
 * twenty minutes, a restart in the middle) is listed with its progress, its step map and its
 * downsampled loss, through the same routes the cockpit calls.
 */
class RunsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void anImportedRunIsListedWithItsStepMapAndSeries() throws Exception {
    long now = System.currentTimeMillis() / 1000 * 1000;
    long start = now - 20 * 60_000;
    StringBuilder text = new StringBuilder();
    for (int i = 0; i <= 120; i++) {
      long t = start + i * 10_000L;
      // Steps 0..590, then a restart from the step-300 checkpoint at i = 60.
      long step = i < 60 ? i * 10L : 300 + (i - 60) * 10L;
      double loss = i == 90 ? 9.0 : 2.0 / (1 + step / 100.0);
      text.append("llm_train_step{run=\"exp/one\",job=\"trainer\"} ")
          .append(step)
          .append(' ')
          .append(t)
          .append('\n');
      text.append("train_loss{run=\"exp/one\",job=\"trainer\"} ")
          .append(loss)
          .append(' ')
          .append(t)
          .append('\n');
      text.append("llm_train_max_steps{run=\"exp/one\",job=\"trainer\"} 2000 ")
          .append(t)
          .append('\n');
    }
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(dir.resolve("data"), Files.createFile(dir.resolve("log")))) {
      server.awaitReady();
      assertThat(
              TestHttp.post(
                      server.uri("/api/v1/import/prometheus"),
                      text.toString().getBytes(StandardCharsets.UTF_8))
                  .statusCode())
          .isEqualTo(204);

      JsonNode runs = JSON.readTree(TestHttp.get(server.uri("/api/v1/runs")).body());
      assertThat(runs.path("status").asText()).isEqualTo("success");
      JsonNode run = runs.path("data").get(0);
      assertThat(run.path("run").asText()).isEqualTo("exp/one");
      assertThat(run.path("step").asLong()).isEqualTo(900);
      assertThat(run.path("max_steps").asLong()).isEqualTo(2000);
      assertThat(run.path("status").asText()).isEqualTo("running");
      assertThat(run.path("steps_per_second").asDouble()).isCloseTo(1.0, within(0.01));
      // 1100 steps left at 1 step/s, with the 290 steps the restart redid counted as lost time:
      // a goodput of 900 steps in 1200 s.
      assertThat(run.path("eta_seconds").asDouble()).isCloseTo(1100 / 0.75, within(20.0));

      String encoded = URLEncoder.encode("exp/one", StandardCharsets.UTF_8);
      JsonNode one = JSON.readTree(TestHttp.get(server.uri("/api/v1/runs/" + encoded)).body());
      assertThat(one.path("data").path("run").asText()).isEqualTo("exp/one");
      assertThat(TestHttp.get(server.uri("/api/v1/runs/no-such-run")).statusCode()).isEqualTo(404);

      JsonNode stepmap =
          JSON.readTree(
              TestHttp.get(
                      server.uri(
                          "/api/v1/runs/exp/one/stepmap?start="
                              + start / 1000
                              + "&end="
                              + now / 1000))
                  .body());
      assertThat(stepmap.path("data").path("segments")).as("a restart starts a segment").hasSize(2);

      String body =
          """
          {"start": %d, "end": %d, "width": 30,
           "queries": [{"id": "loss", "expr": "train_loss{run=\\"exp/one\\"}", "x": "time"}]}
          """
              .formatted(start / 1000, now / 1000);
      JsonNode series =
          JSON.readTree(
              TestHttp.post(
                      server.uri("/api/v1/cockpit/series"),
                      body.getBytes(StandardCharsets.UTF_8),
                      "Content-Type",
                      "application/json")
                  .body());
      JsonNode loss = series.path("data").path("results").get(0).path("series").get(0);
      assertThat(loss.path("x").size()).isLessThanOrEqualTo(30);
      double highest = 0;
      for (JsonNode v : loss.path("max")) {
        highest = Math.max(highest, v.asDouble());
      }
      assertThat(highest).as("the one-sample spike survives downsampling").isEqualTo(9.0);

      String correlate =
          """
          {"target": "train_loss{run=\\"exp/one\\"}", "start": %d, "end": %d}
          """
              .formatted(start / 1000, now / 1000);
      JsonNode movers =
          JSON.readTree(
              TestHttp.post(
                      server.uri("/api/v1/runs/exp/one/correlate"),
                      correlate.getBytes(StandardCharsets.UTF_8),
                      "Content-Type",
                      "application/json")
                  .body());
      assertThat(movers.path("status").asText()).as(movers.toString()).isEqualTo("success");
      assertThat(movers.path("data").isArray()).isTrue();

      assertThat(TestHttp.get(server.uri("/runs/exp/one")).statusCode()).isEqualTo(200);
    }
  }

  private static org.assertj.core.data.Offset<Double> within(double offset) {
    return org.assertj.core.data.Offset.offset(offset);
  }
}
