package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The same generated training-cluster data is remote-written into Flightdeck and into a real
 * Prometheus (Debian's 2.42); hundreds of generated queries then run against both, as instant
 * queries at several times and as range queries at several steps, and the answers must agree within
 * 1e-6 relative (or 1e-9 absolute near zero).
 *
 * <p>Prometheus 2.42 and Flightdeck (which follows 3.x) differ where 3.x changed semantics; the
 * test keeps to cases where both agree and names the differences: range and lookback windows are
 * closed on the left in 2.x and open in 3.x, for raw samples and for subquery points alike (raw
 * samples sit at odd milliseconds and subquery points on whole seconds, while range queries are
 * evaluated at half seconds, so neither ever sits on a window boundary); {@code holt_winters} was
 * renamed and the experimental 3.x functions do not exist in 2.42 (not generated); native
 * histograms are not generated. Queries that fail must fail on both sides.
 */
class PromqlDifferentialTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long MINUTE = 60_000;

  @TempDir Path dir;

  @Test
  void flightdeckAnswersLikePrometheus() throws Exception {
    long start = (System.currentTimeMillis() - 150 * MINUTE) / MINUTE * MINUTE;
    TrainingClusterData data = new TrainingClusterData(start);
    try (PrometheusProcess prometheus = PrometheusProcess.startReceiver(dir.resolve("prometheus"));
        FlightdeckServerProcess flightdeck =
            FlightdeckServerProcess.start(
                dir.resolve("flightdeck"), Files.createFile(dir.resolve("flightdeck.log")))) {
      prometheus.awaitReady();
      flightdeck.awaitReady();
      for (List<RemoteWriteEncoder.TimeSeries> batch : data.batches(20)) {
        byte[] body = RemoteWriteEncoder.encode(batch);
        assertThat(TestHttp.remoteWrite(prometheus.uri("/api/v1/write"), body).statusCode())
            .as("Prometheus accepted the batch")
            .isEqualTo(204);
        assertThat(TestHttp.remoteWrite(flightdeck.uri("/api/v1/write"), body).statusCode())
            .as("Flightdeck accepted the batch")
            .isEqualTo(204);
      }
      long at = (start + 50 * MINUTE) / 1000;
      List<String> queries = DifferentialQueries.all(at);
      assertThat(queries).hasSizeGreaterThanOrEqualTo(300);

      List<String> requests = new ArrayList<>();
      for (String query : queries) {
        String q = "query=" + URLEncoder.encode(query, StandardCharsets.UTF_8);
        for (long minutes : new long[] {31, 61, 95, 119}) {
          requests.add("/api/v1/query?" + q + "&time=" + (start + minutes * MINUTE + 7000) / 1000);
        }
        for (long step : new long[] {60, 37}) {
          requests.add(
              "/api/v1/query_range?"
                  + q
                  + "&start="
                  + seconds(start + 20 * MINUTE + 7500)
                  + "&end="
                  + seconds(start + 110 * MINUTE + 7500)
                  + "&step="
                  + step);
        }
      }
      List<String> disagreements = new ArrayList<>();
      int bothFailed = 0;
      int nonEmpty = 0;
      for (String request : requests) {
        JsonNode expected = ask(prometheus::uri, request);
        JsonNode actual = ask(flightdeck::uri, request);
        boolean expectedOk = expected.path("status").asText().equals("success");
        boolean actualOk = actual.path("status").asText().equals("success");
        if (!expectedOk && !actualOk) {
          bothFailed++;
          continue;
        }
        JsonNode result = expected.path("data").path("result");
        if (!result.isArray() || !result.isEmpty()) {
          nonEmpty++;
        }
        String difference =
            expectedOk && actualOk
                ? PromqlResultComparison.difference(expected.path("data"), actual.path("data"))
                : "Prometheus " + expected + " but Flightdeck " + actual;
        if (difference != null) {
          disagreements.add(decode(request) + "\n    " + difference);
        }
      }
      assertThat(disagreements)
          .as(
              "%d of %d requests disagree (%d failed on both sides)",
              disagreements.size(), requests.size(), bothFailed)
          .isEmpty();
      assertThat(bothFailed)
          .as("requests that failed on both sides")
          .isLessThan(requests.size() / 10);
    }
  }

  private static JsonNode ask(Function<String, URI> server, String request) throws Exception {
    HttpResponse<String> response = TestHttp.get(server.apply(request));
    return JSON.readTree(response.body());
  }

  private static String seconds(long ms) {
    return String.format(java.util.Locale.ROOT, "%.3f", ms / 1000.0);
  }

  private static String decode(String request) {
    return java.net.URLDecoder.decode(request, StandardCharsets.UTF_8);
  }
}
