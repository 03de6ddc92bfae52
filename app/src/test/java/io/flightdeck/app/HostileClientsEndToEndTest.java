package io.flightdeck.app;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.CodedOutputStream;
import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/**
 * A real server against clients that send what they should not or leave early: invalid series in a
 * remote write, a push whose metadata contradicts itself, a bad configuration reloaded, and a heavy
 * query whose client closes its connection. Each gets a clear answer, or its work stops, and the
 * server answers the next request.
 */
class HostileClientsEndToEndTest {
  private static final String CONFIG = "scrape_configs: []\n";
  @TempDir Path dir;

  @Test
  void badWritesAndPushesAreNamedBadReloadsShowAndAbandonedQueriesStop() throws Exception {
    long now = (System.currentTimeMillis() / 1000) * 1000;
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(config, CONFIG);
    FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
                dir.resolve("data"), dir.resolve("server.log"), "--config.file=" + config)
            .awaitReady();
    try {
      remoteWriteNamesInvalidSeriesAndStoresTheRest(server, now);
      pushWithConflictingTypesIsRefusedWithLineAndColumn(server);
      reloadStatusIsExposed(server, config);
      anAbandonedQueryIsCanceledAndTheServerAnswersOn(server, now);
    } finally {
      server.close();
    }
  }

  private void remoteWriteNamesInvalidSeriesAndStoresTheRest(
      FlightdeckServerProcess server, long now) throws Exception {
    byte[] body =
        writeRequest(
            now,
            List.of("__name__", "good", "run", "r1"),
            List.of("run", "r2"),
            List.of("__name__", "dup", "gpu", "0", "gpu", "1"));
    HttpResponse<String> response = TestHttp.remoteWrite(server.uri("/api/v1/write"), body);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("2 series (2 samples) with invalid labels were skipped")
        .contains("invalid metric name or labels, got {run=\"r2\"}")
        .contains(
            "invalid labels for series, labels {__name__=\"dup\", gpu=\"0\", gpu=\"1\"},"
                + " duplicated label gpu");
    assertThat(query(server, "good", now).body()).contains("\"run\":\"r1\"");
  }

  private void pushWithConflictingTypesIsRefusedWithLineAndColumn(FlightdeckServerProcess server)
      throws Exception {
    HttpResponse<String> response =
        TestHttp.post(
            server.uri("/metrics/job/trainer"),
            "# TYPE pushed counter\npushed 1\n# TYPE pushed gauge\n".getBytes(UTF_8));

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body())
        .contains("TYPE line for metric name \"pushed\" after its samples")
        .contains("[line=3, column=8]");
    assertThat(query(server, "pushed", System.currentTimeMillis()).body())
        .contains("\"result\":[]");
  }

  private void reloadStatusIsExposed(FlightdeckServerProcess server, Path config) throws Exception {
    assertThat(server.metric("flightdeck_config_last_reload_successful")).hasValue(1);
    double loadedAt =
        server.metric("flightdeck_config_last_reload_success_timestamp_seconds").orElseThrow();
    assertThat(loadedAt).isPositive();

    Files.writeString(config, "scrape_configs: [\n");
    assertThat(TestHttp.post(server.uri("/-/reload"), new byte[0]).statusCode()).isEqualTo(500);
    assertThat(server.metric("flightdeck_config_last_reload_successful")).hasValue(0);
    assertThat(server.metric("flightdeck_config_last_reload_success_timestamp_seconds"))
        .hasValue(loadedAt);

    Files.writeString(config, CONFIG);
    assertThat(TestHttp.post(server.uri("/-/reload"), new byte[0]).statusCode()).isEqualTo(200);
    assertThat(server.metric("flightdeck_config_last_reload_successful")).hasValue(1);
  }

  private void anAbandonedQueryIsCanceledAndTheServerAnswersOn(
      FlightdeckServerProcess server, long now) throws Exception {
    // Ten series sampled every 15 s for a day: the query below computes a day's variance of
    // each at 86,400 subquery steps, seconds of work per series.
    long from = now - 86_400_000L;
    List<TimeSeries> day =
        IntStream.range(0, 10)
            .mapToObj(
                s ->
                    new TimeSeries(
                        Labels.of("__name__", "x", "s", Integer.toString(s)),
                        IntStream.range(0, 5_760).mapToLong(i -> from + i * 15_000L).toArray(),
                        IntStream.range(0, 5_760).mapToDouble(i -> (i * 7 + s) % 100).toArray()))
            .toList();
    assertThat(
            TestHttp.remoteWrite(server.uri("/api/v1/write"), RemoteWriteEncoder.encode(day))
                .statusCode())
        .isEqualTo(204);

    String heavy = "max_over_time(stdvar_over_time(x[1d])[1d:1s])";
    String path = "/api/v1/query?query=" + URLEncoder.encode(heavy, UTF_8) + "&time=" + now / 1000;
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      OutputStream out = socket.getOutputStream();
      out.write(("GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(UTF_8));
      out.flush();
      Thread.sleep(1_000); // the query is under way
    }

    String canceled = "request canceled: query was canceled in expression evaluation";
    boolean logged = false;
    for (int i = 0; i < 600 && !logged; i++) { // bounded: a minute
      logged = server.log().contains(canceled);
      if (!logged) {
        Thread.sleep(100);
      }
    }
    String log = server.log();
    assertThat(logged)
        .withFailMessage(() -> "no \"" + canceled + "\" in the log:\n" + log)
        .isTrue();
    assertThat(query(server, "x", now).statusCode()).isEqualTo(200);
  }

  private static HttpResponse<String> query(FlightdeckServerProcess server, String q, long time)
      throws Exception {
    return TestHttp.get(
        server.uri(
            "/api/v1/query?query=" + URLEncoder.encode(q, UTF_8) + "&time=" + time / 1000.0));
  }

  /** A WriteRequest with one sample per series, labels as given: invalid ones included. */
  @SafeVarargs
  private static byte[] writeRequest(long t, List<String>... series) throws IOException {
    ByteArrayOutputStream request = new ByteArrayOutputStream();
    CodedOutputStream out = CodedOutputStream.newInstance(request);
    for (List<String> labels : series) {
      ByteArrayOutputStream one = new ByteArrayOutputStream();
      CodedOutputStream ts = CodedOutputStream.newInstance(one);
      for (int i = 0; i < labels.size(); i += 2) {
        ByteArrayOutputStream label = new ByteArrayOutputStream();
        CodedOutputStream l = CodedOutputStream.newInstance(label);
        l.writeString(1, labels.get(i));
        l.writeString(2, labels.get(i + 1));
        l.flush();
        ts.writeByteArray(1, label.toByteArray());
      }
      ByteArrayOutputStream sample = new ByteArrayOutputStream();
      CodedOutputStream s = CodedOutputStream.newInstance(sample);
      s.writeDouble(1, 1);
      s.writeInt64(2, t);
      s.flush();
      ts.writeByteArray(2, sample.toByteArray());
      ts.flush();
      out.writeByteArray(1, one.toByteArray());
    }
    out.flush();
    return Snappy.compress(request.toByteArray());
  }
}
