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
 * histograms are not generated. Queries that fail must fail on both sides, and only for the one
 * reason named in {@link #EXPLAINED_FAILURE}; at least nine answers in ten must hold data; where
 * PromQL defines an order (sort, sort_desc) the order must agree too.
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
      List<String> unexplainedFailures = new ArrayList<>();
      int bothFailed = 0;
      int nonEmpty = 0;
      int ordered = 0;
      for (String request : requests) {
        JsonNode expected = ask(prometheus::uri, request);
        JsonNode actual = ask(flightdeck::uri, request);
        boolean expectedOk = expected.path("status").asText().equals("success");
        boolean actualOk = actual.path("status").asText().equals("success");
        if (!expectedOk && !actualOk) {
          bothFailed++;
          if (!EXPLAINED_FAILURE.equals(expected.path("error").asText())
              || !EXPLAINED_FAILURE.equals(actual.path("error").asText())) {
            unexplainedFailures.add(decode(request) + "\n    " + expected + "\n    " + actual);
          }
          continue;
        }
        JsonNode result = expected.path("data").path("result");
        if (!result.isArray() || !result.isEmpty()) {
          nonEmpty++;
        }
        boolean orderDefined = definesOrder(request);
        if (orderDefined && result.size() > 1) {
          ordered++;
        }
        String difference =
            expectedOk && actualOk
                ? PromqlResultComparison.difference(
                    expected.path("data"), actual.path("data"), orderDefined)
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
      assertThat(unexplainedFailures)
          .as("requests that failed on both sides for another reason than duplicate series")
          .isEmpty();
      // Measured: 2,353 of 2,460 answers hold data; an empty answer agrees too easily.
      assertThat(nonEmpty)
          .as("answers with data among %d (%d failed on both sides)", requests.size(), bothFailed)
          .isGreaterThanOrEqualTo(requests.size() * 9 / 10);
      assertThat(ordered).as("instant answers whose order was compared").isGreaterThanOrEqualTo(20);
    }
  }

  /**
   * The only failure both engines may share: queries that drop the metric name of several series
   * into one label set, an error by PromQL's definition, which the generator does not avoid.
   */
  private static final String EXPLAINED_FAILURE =
      "vector cannot contain metrics with the same labelset";

  /**
   * Whether PromQL defines the order of the answer: an instant query whose outermost function is
   * {@code sort} or {@code sort_desc} (topk and bottomk define none; the generator wraps them).
   */
  private static boolean definesOrder(String request) {
    String query = decode(request);
    return query.startsWith("/api/v1/query?query=sort(")
        || query.startsWith("/api/v1/query?query=sort_desc(");
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
