package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The admin delete endpoint on a running server, then the offline tools on its data directory:
 * {@code tsdb analyze} names the metric with the most series and reports bytes per sample, {@code
 * tsdb dump --match} prints exactly the selected samples.
 */
class AdminAndToolsTest {
  @TempDir Path dir;

  @Test
  void deleteSeriesThenAnalyzeAndDump() throws Exception {
    Path data = dir.resolve("data");
    long now = System.currentTimeMillis();
    List<TimeSeries> batch = new ArrayList<>();
    for (int gpu = 0; gpu < 8; gpu++) {
      batch.add(
          new TimeSeries(
              Labels.of("__name__", "DCGM_FI_DEV_GPU_TEMP", "gpu", Integer.toString(gpu)),
              new long[] {now - 30_000, now - 15_000},
              new double[] {60 + gpu, 61 + gpu}));
    }
    batch.add(
        new TimeSeries(
            Labels.of("__name__", "llm_train_loss", "run", "r1"),
            new long[] {now - 30_000, now - 15_000},
            new double[] {2.5, 2.25}));

    FlightdeckServerProcess server =
        FlightdeckServerProcess.start(data, dir.resolve("server.log"), "--web.enable-admin-api")
            .awaitReady();
    try {
      assertThat(
              TestHttp.remoteWrite(server.uri("/api/v1/write"), RemoteWriteEncoder.encode(batch))
                  .statusCode())
          .isEqualTo(204);
      HttpResponse<String> missing =
          TestHttp.post(server.uri("/api/v1/admin/tsdb/delete_series"), new byte[0]);
      assertThat(missing.statusCode()).isEqualTo(400);
      assertThat(missing.body()).contains("no match[] parameter provided").contains("bad_data");
      HttpResponse<String> bad =
          TestHttp.post(
              server.uri("/api/v1/admin/tsdb/delete_series?match[]=%7Bgpu%3D"), new byte[0]);
      assertThat(bad.statusCode()).isEqualTo(400);
      assertThat(bad.body()).contains("bad selector");
      HttpResponse<String> deleted =
          TestHttp.post(
              server.uri(
                  "/api/v1/admin/tsdb/delete_series?match[]=DCGM_FI_DEV_GPU_TEMP%7Bgpu%3D~%226%7C7%22%7D"),
              new byte[0]);
      assertThat(deleted.statusCode()).isEqualTo(204);

      FlightdeckCli.Result beside =
          FlightdeckCli.run("tsdb", "dump", data.toString(), "--match=llm_train_loss");
      assertThat(beside.exitCode())
          .as("read-only tools work beside the server: " + beside.stderr())
          .isZero();
      assertThat(beside.stdout().lines()).hasSize(2);
    } finally {
      assertThat(server.stop()).isZero();
    }

    assertThat(StoredSamples.read(data, Matcher.equal("__name__", "DCGM_FI_DEV_GPU_TEMP")))
        .as("gpu 6 and 7 deleted, the other six kept")
        .hasSize(6);

    FlightdeckCli.Result analyze = FlightdeckCli.run("tsdb", "analyze", data.toString());
    assertThat(analyze.exitCode()).as(analyze.stderr()).isZero();
    assertThat(analyze.stdout())
        .contains("Highest cardinality metric names")
        .containsPattern("\\s6 DCGM_FI_DEV_GPU_TEMP")
        .contains("Series: 7")
        .contains("bytes per sample");

    FlightdeckCli.Result dump =
        FlightdeckCli.run("tsdb", "dump", data.toString(), "--match=llm_train_loss{run=\"r1\"}");
    assertThat(dump.exitCode()).as(dump.stderr()).isZero();
    assertThat(dump.stdout().lines())
        .containsExactly(
            "{__name__=\"llm_train_loss\", run=\"r1\"} 2.5 " + (now - 30_000),
            "{__name__=\"llm_train_loss\", run=\"r1\"} 2.25 " + (now - 15_000));

    FlightdeckCli.Result badMatch =
        FlightdeckCli.run("tsdb", "dump", data.toString(), "--match={gpu=");
    assertThat(badMatch.exitCode()).isEqualTo(1);
    assertThat(badMatch.stderr()).contains("bad selector").contains("parse error");
  }
}
