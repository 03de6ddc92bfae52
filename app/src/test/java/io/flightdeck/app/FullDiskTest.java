package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.flightdeck.app.RemoteWriteEncoder.TimeSeries;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk (DESIGN.md section 6, faults): with the data directory on a 4 MiB tmpfs, remote write
 * must answer 503 (retry later), never 500, while the server stays healthy; once space is freed
 * writes succeed again, and after a restart every acknowledged sample is there. Needs root to mount
 * the tmpfs.
 */
@EnabledOnOs(OS.LINUX)
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FullDiskTest {
  private static final String METRIC = "full_disk_samples";
  private static final int SERIES = 100;
  private static final int SAMPLES_PER_SERIES = 10;

  /** Bounds the filling loop: 4 MiB holds a few hundred batches of this size. */
  private static final int MAX_BATCHES = 2_000;

  private final Random random = new Random(42);
  private final List<Labels> series = new ArrayList<>();

  /** Timestamp of the next batch; half an hour back leaves room for every batch allowed. */
  private long next = System.currentTimeMillis() - Duration.ofMinutes(30).toMillis();

  /** The tmpfs to unmount after the test, once its server processes are gone. */
  private Path mounted;

  @AfterEach
  void unmount() throws Exception {
    if (mounted != null) {
      String problem = run("umount", mounted.toString());
      assertThat(problem).as("umount %s", mounted).isNull();
    }
  }

  @Test
  void fullDiskAnswers503AndWritesResumeOnceSpaceIsFreed(@TempDir Path tmp) throws Exception {
    Path mount = tmp.resolve("tmpfs");
    Files.createDirectories(mount);
    String problem = run("mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", mount.toString());
    // Only root may mount a tmpfs to fill a disk safely; as root (CI) a failed mount is a failure.
    boolean root = "root".equals(System.getProperty("user.name"));
    assumeTrue(root, "needs root to mount a tmpfs to fill a disk safely");
    assertThat(problem).as("mounting a 4 MB tmpfs as root").isNull();
    mounted = mount;
    for (int s = 0; s < SERIES; s++) {
      series.add(Labels.of("__name__", METRIC, "series", "s" + s));
    }
    // Written now, deleted later to make room without unmounting under the server.
    Path filler = mount.resolve("filler");
    Files.write(filler, new byte[1 << 20]);
    Path data = mount.resolve("data");
    BatchLedger ledger = new BatchLedger();
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(data, tmp.resolve("server-1.log"))) {
      server.awaitReady();
      HttpResponse<String> refused = null;
      for (int i = 0; i < MAX_BATCHES && refused == null; i++) {
        HttpResponse<String> response = send(server, ledger);
        assertThat(response.statusCode())
            .as("batch %d: %s\n%s", i, response.body(), server.log())
            .isIn(204, 503);
        if (response.statusCode() == 503) {
          refused = response;
        }
      }
      assertThat(refused).as("a 503 within %d batches on a 4 MiB disk", MAX_BATCHES).isNotNull();
      assertThat(refused.body()).contains("write-ahead log");
      assertThat(TestHttp.get(server.uri("/-/healthy")).statusCode()).isEqualTo(200);
      assertThat(server.metric("flightdeck_tsdb_head_series")).hasValue(SERIES);

      Files.delete(filler);
      for (int i = 0; i < 3; i++) {
        HttpResponse<String> response = send(server, ledger);
        assertThat(response.statusCode())
            .as("after freeing space: %s", response.body())
            .isEqualTo(204);
      }
      server.stop();
    }
    try (FlightdeckServerProcess restarted =
        FlightdeckServerProcess.start(data, tmp.resolve("server-2.log"))) {
      restarted.awaitReady();
      restarted.stop();
    }
    ledger.verify(StoredSamples.read(data, Matcher.equal("__name__", METRIC)));
    assertThat(ledger.acknowledged()).as("batches stored before the disk filled").isPositive();
  }

  /** Sends the next batch: every series, ten samples 100 ms apart, random values. */
  private HttpResponse<String> send(FlightdeckServerProcess server, BatchLedger ledger)
      throws IOException, InterruptedException {
    long[] timestamps = new long[SAMPLES_PER_SERIES];
    for (int j = 0; j < timestamps.length; j++) {
      timestamps[j] = next + j * 100L;
    }
    next += 1_000;
    List<TimeSeries> batch = new ArrayList<>();
    for (Labels labels : series) {
      double[] values = new double[timestamps.length];
      for (int j = 0; j < values.length; j++) {
        values[j] = random.nextDouble();
      }
      batch.add(new TimeSeries(labels, timestamps, values));
    }
    HttpResponse<String> response =
        TestHttp.remoteWrite(server.uri("/api/v1/write"), RemoteWriteEncoder.encode(batch));
    ledger.record(batch, response.statusCode() == 204);
    return response;
  }

  /** Runs a system command; null on success, else its exit code and output. */
  private static String run(String... command) throws IOException, InterruptedException {
    Path output = Files.createTempFile("full-disk-command", ".txt");
    try {
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(output.toFile())
              .start();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(60, TimeUnit.SECONDS);
        return "timed out: " + String.join(" ", command);
      }
      return process.exitValue() == 0
          ? null
          : "exit " + process.exitValue() + ": " + Files.readString(output).trim();
    } finally {
      Files.deleteIfExists(output);
    }
  }
}
