package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /api/v1/query} against any Prometheus-compatible server (Flightdeck, VictoriaMetrics).
 */
final class InstantQuery {
  private static final ObjectMapper JSON = new ObjectMapper();

  private InstantQuery() {}

  /** The {@code data.result} array; fails on an error answer. */
  static JsonNode result(URI base, String promql) throws IOException, InterruptedException {
    return result(base, promql, "");
  }

  /** As {@link #result(URI, String)} with more URL parameters, {@code &name=value...}. */
  static JsonNode result(URI base, String promql, String parameters)
      throws IOException, InterruptedException {
    HttpResponse<String> response =
        TestHttp.get(
            base.resolve(
                "/api/v1/query?query="
                    + URLEncoder.encode(promql, StandardCharsets.UTF_8)
                    + parameters));
    JsonNode body = JSON.readTree(response.body());
    if (response.statusCode() != 200 || !body.path("status").asText().equals("success")) {
      throw new AssertionError("query " + promql + " failed: " + response.body());
    }
    return body.path("data").path("result");
  }

  /** The value of a one-series answer, or NaN when there is no series. */
  static double scalar(URI base, String promql) throws IOException, InterruptedException {
    JsonNode result = result(base, promql);
    if (result.isEmpty()) {
      return Double.NaN;
    }
    if (result.size() > 1) {
      throw new AssertionError("query " + promql + " returned " + result.size() + " series");
    }
    return Double.parseDouble(result.get(0).path("value").get(1).asText());
  }
}
