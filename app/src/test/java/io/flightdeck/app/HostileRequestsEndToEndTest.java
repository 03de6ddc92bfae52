package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server's side of hostile requests, on a real process: a 100 KB query by GET is answered as
 * Prometheus answers it, a deeply nested query's parse tree is written, and a query past {@code
 * --query.max-memory} ends in 422 naming the flag while the server keeps answering.
 */
class HostileRequestsEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void longNestedAndMemoryHungryQueriesGetClearAnswers() throws Exception {
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"), Files.createFile(dir.resolve("log")), "--query.max-memory=1MB")) {
      server.awaitReady();

      String sum = "1" + " + 1".repeat(25_000); // 100 KB
      HttpResponse<String> longGet = query(server, "/api/v1/query?query=", sum);
      assertThat(longGet.statusCode()).as(longGet.body()).isIn(200, 400, 422);
      assertThat(longGet.body()).startsWith("{\"status\":");

      String deep = "(".repeat(900) + "1" + ")".repeat(900);
      HttpResponse<String> tree = query(server, "/api/v1/parse_query?query=", deep);
      assertThat(tree.statusCode()).as(tree.body()).isEqualTo(200);
      assertThat(tree.body()).contains("\"type\":\"parenExpr\"");

      StringBuilder text = new StringBuilder();
      long now = System.currentTimeMillis();
      for (int s = 0; s < 2000; s++) {
        text.append("wide{s=\"").append(s).append("\"} 1 ").append(now - 60_000).append('\n');
      }
      assertThat(
              TestHttp.post(
                      server.uri("/api/v1/import/prometheus"),
                      text.toString().getBytes(StandardCharsets.UTF_8))
                  .statusCode())
          .isEqualTo(204);
      HttpResponse<String> hungry =
          query(
              server,
              "/api/v1/query_range?start="
                  + (now / 1000 - 3600)
                  + "&end="
                  + now / 1000
                  + "&step=1&query=",
              "last_over_time(wide[2h])");
      assertThat(hungry.statusCode()).isEqualTo(422);
      JsonNode error = JSON.readTree(hungry.body());
      assertThat(error.path("errorType").asText()).isEqualTo("execution");
      assertThat(error.path("error").asText()).contains("--query.max-memory");

      HttpResponse<String> beside = query(server, "/api/v1/query?query=", "count(wide)");
      assertThat(beside.statusCode()).isEqualTo(200);
      assertThat(beside.body()).contains("\"2000\"");
    }
  }

  private static HttpResponse<String> query(
      FlightdeckServerProcess server, String pathAndParam, String query) throws Exception {
    return TestHttp.get(
        server.uri(pathAndParam + URLEncoder.encode(query, StandardCharsets.UTF_8)));
  }
}
