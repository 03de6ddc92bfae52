package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.xerial.snappy.Snappy;

/** The {@code flightdeck} command line and the server's HTTP edge, driven as a child process. */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ServerCliTest {
  @TempDir static Path shared;

  /** One server for the tests that only look at it, to spare a JVM start each. */
  private static FlightdeckServerProcess server;

  @BeforeAll
  static void startSharedServer() throws Exception {
    server = FlightdeckServerProcess.start(shared.resolve("data"), shared.resolve("server.log"));
    server.awaitReady();
  }

  @AfterAll
  static void stopSharedServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  @Test
  void helpListsTheSubcommands() throws Exception {
    FlightdeckCli.Result result = FlightdeckCli.run("--help");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    // Subcommands are listed one per line, indented, name first.
    assertThat(result.stdout())
        .containsPattern("(?m)^\\s+server\\s")
        .containsPattern("(?m)^\\s+tsdb\\s");
  }

  @Test
  void unknownOptionIsAUsageError() throws Exception {
    FlightdeckCli.Result result = FlightdeckCli.run("server", "--x");

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("Unknown option: '--x'");
  }

  @Test
  void healthAndReadinessAnswer200() throws Exception {
    HttpResponse<String> healthy = TestHttp.get(server.uri("/-/healthy"));
    HttpResponse<String> ready = TestHttp.get(server.uri("/-/ready"));

    assertThat(healthy.statusCode()).isEqualTo(200);
    assertThat(ready.statusCode()).isEqualTo(200);
  }

  @Test
  void metricsExposeTheHeadSeriesGauge() throws Exception {
    assertThat(server.metric("flightdeck_tsdb_head_series")).isPresent();
  }

  @Test
  void metricsTellTheDetectionLoopsPasses() throws Exception {
    // The loop's first pass runs as the server starts; the next ones an evaluation interval apart.
    for (int i = 0;
        i < 100 && server.metric("flightdeck_detection_passes_total").orElse(0.0) < 1;
        i++) {
      Thread.sleep(100);
    }
    double passes = server.metric("flightdeck_detection_passes_total").orElseThrow();
    assertThat(passes).isGreaterThanOrEqualTo(1);
    double lastEnded =
        server.metric("flightdeck_detection_last_pass_timestamp_seconds").orElseThrow();
    assertThat(lastEnded).isCloseTo(System.currentTimeMillis() / 1000.0, within(600.0));
    double last = server.metric("flightdeck_detection_last_pass_duration_seconds").orElseThrow();
    assertThat(server.metric("flightdeck_detection_pass_seconds_total").orElseThrow())
        .isGreaterThanOrEqualTo(last);
    assertThat(server.metric("flightdeck_detection_last_pass_runs")).isPresent();
  }

  @Test
  void bodyThatIsNotSnappyIsRejectedWith400() throws Exception {
    byte[] plain = "this is not snappy".getBytes(StandardCharsets.UTF_8);

    HttpResponse<String> response = TestHttp.remoteWrite(server.uri("/api/v1/write"), plain);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("snappy");
  }

  @Test
  void snappyBodyThatIsNotProtobufIsRejectedWith400() throws Exception {
    // Field 1, length-delimited, claims 100 bytes of time series but the body ends after 2.
    byte[] truncated = Snappy.compress(new byte[] {0x0a, 100, 0x0a, 0x00});

    HttpResponse<String> response = TestHttp.remoteWrite(server.uri("/api/v1/write"), truncated);

    assertThat(response.statusCode()).isEqualTo(400);
    assertThat(response.body()).contains("protobuf");
  }

  @Test
  void wrongContentTypeIsRejectedWith415() throws Exception {
    byte[] body = RemoteWriteEncoder.encode(List.of(oneSample("content_type_test", 1)));

    HttpResponse<String> response =
        TestHttp.post(
            server.uri("/api/v1/write"),
            body,
            "Content-Type",
            "application/json",
            "Content-Encoding",
            "snappy");

    assertThat(response.statusCode()).isEqualTo(415);
    assertThat(response.body()).contains("Content-Type");
  }

  @Test
  void snapshotIsRefusedWithoutTheAdminApi() throws Exception {
    HttpResponse<String> response =
        TestHttp.post(server.uri("/api/v1/admin/tsdb/snapshot"), new byte[0]);

    assertThat(response.statusCode()).isEqualTo(503);
    assertThat(new ObjectMapper().readTree(response.body()).path("errorType").asText())
        .isEqualTo("unavailable");
  }

  @Test
  void secondServerOnTheSameDirectoryExitsWithAClearMessage() throws Exception {
    FlightdeckCli.Result result =
        FlightdeckCli.run(
            "server",
            "--web.listen-address=127.0.0.1:" + LocalPorts.free(),
            "--storage.tsdb.path=" + shared.resolve("data"));

    assertThat(result.exitCode()).isNotZero();
    assertThat(result.stderr()).contains("data directory is in use");
  }

  @Test
  void snapshotWithTheAdminApiHoldsTheHeadAsABlock(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("data");
    TimeSeries sample = oneSample("snapshot_test", 42.5);
    String name;
    try (FlightdeckServerProcess admin =
        FlightdeckServerProcess.start(data, tmp.resolve("server.log"), "--web.enable-admin-api")) {
      admin.awaitReady();
      assertThat(write(admin, sample).statusCode()).isEqualTo(204);

      HttpResponse<String> response =
          TestHttp.post(admin.uri("/api/v1/admin/tsdb/snapshot"), new byte[0]);

      assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
      JsonNode json = new ObjectMapper().readTree(response.body());
      assertThat(json.path("status").asText()).isEqualTo("success");
      name = json.path("data").path("name").asText();
      assertThat(name).isNotEmpty();
      admin.stop(); // releases the lock so the snapshot can be read below
    }
    Path snapshot = data.resolve("snapshots").resolve(name);
    try (Stream<Path> entries = Files.list(snapshot)) {
      assertThat(entries.filter(block -> Files.isRegularFile(block.resolve("meta.json"))))
          .as("blocks in %s", snapshot)
          .isNotEmpty();
    }
    assertThat(StoredSamples.read(snapshot, Matcher.equal("__name__", "snapshot_test")))
        .containsExactly(
            Map.entry(
                sample.labels(), List.of(new StoredSamples.Sample(sample.timestamps()[0], 42.5))));
  }

  @Test
  void sigtermExitsZeroAndARestartReplaysTheData(@TempDir Path tmp) throws Exception {
    Path data = tmp.resolve("data");
    try (FlightdeckServerProcess first =
        FlightdeckServerProcess.start(data, tmp.resolve("first.log"))) {
      first.awaitReady();
      assertThat(write(first, oneSample("restart_a", 1)).statusCode()).isEqualTo(204);
      assertThat(write(first, oneSample("restart_b", 2)).statusCode()).isEqualTo(204);

      assertThat(first.stop()).as("exit code after SIGTERM\n%s", first.log()).isZero();
    }
    try (FlightdeckServerProcess second =
        FlightdeckServerProcess.start(data, tmp.resolve("second.log"))) {
      second.awaitReady();

      assertThat(second.metric("flightdeck_tsdb_head_series")).hasValue(2);
      assertThat(second.stop()).isZero();
    }
  }

  private static TimeSeries oneSample(String metric, double value) {
    return new TimeSeries(
        Labels.of("__name__", metric, "job", "cli-test"),
        new long[] {System.currentTimeMillis()},
        new double[] {value});
  }

  private static HttpResponse<String> write(FlightdeckServerProcess target, TimeSeries series)
      throws IOException, InterruptedException {
    return TestHttp.remoteWrite(
        target.uri("/api/v1/write"), RemoteWriteEncoder.encode(List.of(series)));
  }
}
