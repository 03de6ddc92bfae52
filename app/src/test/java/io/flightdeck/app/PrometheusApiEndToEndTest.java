package io.flightdeck.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The query API on a running server, called the way Grafana's Prometheus data source calls it, then
 * {@code flightdeck query} against the server and against its data directory.
 */
class PrometheusApiEndToEndTest {
  @TempDir Path dir;

  @Test
  void grafanaRequestsAndTheQueryCommand() throws Exception {
    long base = (System.currentTimeMillis() / 60_000) * 60_000 - 120_000;
    String t0 = Long.toString(base / 1000);
    String t2 = Long.toString(base / 1000 + 30);
    List<TimeSeries> batch =
        List.of(
            new TimeSeries(
                Labels.of("__name__", "llm_train_loss", "job", "trainer", "run", "r1"),
                new long[] {base, base + 15_000, base + 30_000},
                new double[] {2.5, 2.25, 0.1}),
            new TimeSeries(
                Labels.of("__name__", "up", "job", "node", "instance", "gpu-1:9100"),
                new long[] {base, base + 15_000, base + 30_000},
                new double[] {1, 1, 1}));
    Path data = dir.resolve("data");
    FlightdeckServerProcess server =
        FlightdeckServerProcess.start(data, dir.resolve("server.log")).awaitReady();
    try {
      assertThat(
              TestHttp.remoteWrite(server.uri("/api/v1/write"), RemoteWriteEncoder.encode(batch))
                  .statusCode())
          .isEqualTo(204);

      HttpResponse<String> build = TestHttp.get(server.uri("/api/v1/status/buildinfo"));
      assertThat(build.statusCode()).isEqualTo(200);
      assertThat(build.headers().firstValue("Content-Type"))
          .hasValueSatisfying(type -> assertThat(type).startsWith("application/json"));
      assertThat(build.body()).startsWith("{\"status\":\"success\",\"data\":{\"version\":\"");

      assertThat(form(server, "/api/v1/query", "query", "llm_train_loss", "time", t2).body())
          .isEqualTo(
              "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":"
                  + "{\"__name__\":\"llm_train_loss\",\"job\":\"trainer\",\"run\":\"r1\"},"
                  + "\"value\":["
                  + t2
                  + ",\"0.1\"]}]}}");
      assertThat(
              form(
                      server,
                      "/api/v1/query_range",
                      "query",
                      "sum by (job) (up)",
                      "start",
                      t0,
                      "end",
                      t2,
                      "step",
                      "15")
                  .body())
          .isEqualTo(
              "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
                  + "{\"job\":\"node\"},\"values\":[["
                  + t0
                  + ",\"1\"],["
                  + (base / 1000 + 15)
                  + ",\"1\"],["
                  + t2
                  + ",\"1\"]]}]}}");
      HttpResponse<String> badQuery = form(server, "/api/v1/query", "query", "sum(", "time", t2);
      assertThat(badQuery.statusCode()).isEqualTo(400);
      assertThat(badQuery.body())
          .startsWith(
              "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter"
                  + " \\\"query\\\": 1:5: parse error:");

      // A large result goes out in one piece with its length, or gzipped when the client accepts
      // it, as Grafana's does.
      byte[] manyPoints = ("query=up&start=" + t0 + "&end=" + t2 + "&step=0.1").getBytes(UTF_8);
      HttpResponse<byte[]> plain = postBytes(server, "/api/v1/query_range", manyPoints);
      HttpResponse<byte[]> gzipped =
          postBytes(server, "/api/v1/query_range", manyPoints, "Accept-Encoding", "gzip");
      assertThat(plain.headers().firstValueAsLong("Content-Length")).hasValue(plain.body().length);
      assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
      assertThat(new String(plain.body(), UTF_8))
          .startsWith("{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\"")
          .contains("[" + (base / 1000 + 29) + ".900,\"1\"],[" + t2 + ",\"1\"]]}]}}");
      assertThat(gzipped.headers().firstValue("Content-Encoding")).hasValue("gzip");
      try (InputStream unzipped = new GZIPInputStream(new ByteArrayInputStream(gzipped.body()))) {
        assertThat(unzipped.readAllBytes()).isEqualTo(plain.body());
      }

      String range = "start=" + t0 + "&end=" + t2;
      assertThat(
              TestHttp.get(
                      server.uri(
                          "/api/v1/labels?" + range + "&match[]=" + encode("{job=\"trainer\"}")))
                  .body())
          .isEqualTo("{\"status\":\"success\",\"data\":[\"__name__\",\"job\",\"run\"]}");
      assertThat(
              TestHttp.get(
                      server.uri("/api/v1/label/job/values?match[]=" + encode("up") + "&" + range))
                  .body())
          .isEqualTo("{\"status\":\"success\",\"data\":[\"node\"]}");
      assertThat(TestHttp.get(server.uri("/api/v1/label/__name__/values")).body())
          .isEqualTo("{\"status\":\"success\",\"data\":[\"llm_train_loss\",\"up\"]}");
      assertThat(
              form(server, "/api/v1/series", "match[]", "llm_train_loss", "start", t0, "end", t2)
                  .body())
          .isEqualTo(
              "{\"status\":\"success\",\"data\":[{\"__name__\":\"llm_train_loss\","
                  + "\"job\":\"trainer\",\"run\":\"r1\"}]}");
      assertThat(TestHttp.get(server.uri("/api/v1/metadata")).body())
          .isEqualTo("{\"status\":\"success\",\"data\":{}}");
      assertThat(TestHttp.get(server.uri("/api/v1/status/flags")).body())
          .contains("\"query.lookback-delta\":\"5m\"")
          .contains("\"storage.tsdb.path\":\"" + data + "\"");
      assertThat(TestHttp.get(server.uri("/api/v1/status/tsdb")).body())
          .contains("\"headStats\":{\"numSeries\":2,")
          .contains("\"seriesCountByLabelValuePair\":[{\"name\":\"__name__=llm_train_loss\"");

      FlightdeckCli.Result viaServer =
          FlightdeckCli.run(
              "query",
              "--server=http://127.0.0.1:" + server.port(),
              "--time=" + t2,
              "llm_train_loss");
      assertThat(viaServer.exitCode()).as(viaServer.stderr()).isZero();
      assertThat(viaServer.stdout())
          .isEqualTo("llm_train_loss{job=\"trainer\", run=\"r1\"} => 0.1 @[" + t2 + "]\n");
      FlightdeckCli.Result badViaServer =
          FlightdeckCli.run("query", "--server=http://127.0.0.1:" + server.port(), "sum(");
      assertThat(badViaServer.exitCode()).isEqualTo(1);
      assertThat(badViaServer.stderr()).contains("bad_data").contains("parse error");
    } finally {
      assertThat(server.stop()).isZero();
    }

    FlightdeckCli.Result onDisk =
        FlightdeckCli.run(
            "query",
            "--storage.tsdb.path=" + data,
            "--start=" + t0,
            "--end=" + t2,
            "--step=15s",
            "--output=json",
            "llm_train_loss");
    assertThat(onDisk.exitCode()).as(onDisk.stderr()).isZero();
    assertThat(onDisk.stdout())
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
                + "{\"__name__\":\"llm_train_loss\",\"job\":\"trainer\",\"run\":\"r1\"},"
                + "\"values\":[["
                + t0
                + ",\"2.5\"],["
                + (base / 1000 + 15)
                + ",\"2.25\"],["
                + t2
                + ",\"0.1\"]]}]}}\n");
  }

  /** A POST with a form body, as Grafana sends queries. */
  private static HttpResponse<String> form(
      FlightdeckServerProcess server, String path, String... params) throws Exception {
    StringBuilder body = new StringBuilder();
    for (int i = 0; i < params.length; i += 2) {
      body.append(body.isEmpty() ? "" : "&")
          .append(params[i])
          .append('=')
          .append(encode(params[i + 1]));
    }
    return TestHttp.post(
        server.uri(path),
        body.toString().getBytes(StandardCharsets.UTF_8),
        "Content-Type",
        "application/x-www-form-urlencoded");
  }

  /** A POST of a form body, answered as bytes; {@code headers} are name, value pairs. */
  private static HttpResponse<byte[]> postBytes(
      FlightdeckServerProcess server, String path, byte[] form, String... headers)
      throws Exception {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(server.uri(path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofByteArray(form));
    if (headers.length > 0) {
      request.headers(headers);
    }
    try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
      return client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
