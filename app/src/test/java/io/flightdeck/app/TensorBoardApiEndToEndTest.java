package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.tensorboard.FileHParamsStore;
import io.flightdeck.tensorboard.FileImageStore;
import io.flightdeck.tensorboard.FileTextStore;
import io.flightdeck.tensorboard.RunHParams;
import io.flightdeck.tensorboard.TextSample;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code /api/v1/tensorboard} endpoints of a server watching a logdir with scalars, a histogram
 * text samples, an image and a PyTorch hparams sub-run, their JSON pinned; and {@code import
 * tensorboard} storing the text samples, images and hparams.
 */
class TensorBoardApiEndToEndTest {
  private static final Duration PICKUP = Duration.ofSeconds(30);

  /** Whole seconds ten minutes ago: recent enough for the head, stable within one test. */
  private static final long W = System.currentTimeMillis() / 1000 - 600;

  private static final byte[] PNG = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 7};

  @TempDir Path dir;

  private Path writeLogdir() throws Exception {
    Path logdir = Files.createDirectories(dir.resolve("logs"));
    Path a = Files.createDirectories(logdir.resolve("run-a"));
    Files.write(
        a.resolve("events.out.tfevents.1.host"),
        new TfEventsFiles()
            .scalar(W, 0, "train/loss", 2.5f)
            .scalar(W + 1.25, 1, "train/loss", 1.5f)
            .scalar(W + 2, 2, "train/loss", 0.75f)
            .histogram(
                W, 0, "weights", 2, new double[] {0.5, 1, Double.MAX_VALUE}, new double[] {1, 2, 1})
            .histogram(
                W + 2,
                2,
                "weights",
                3.5,
                new double[] {0.5, 1, Double.MAX_VALUE},
                new double[] {0, 3, 1})
            .text(W + 0.5, 0, "notes/text_summary", "hello world")
            .text(W + 2.5, 5, "notes/text_summary", "goodbye world")
            .image(W + 1, 1, "samples", 2, 3, PNG)
            .bytes());
    // PyTorch's add_hparams writes a sub-run named by time.time() inside the run.
    Path hparams = Files.createDirectories(a.resolve("1700000000.25"));
    Files.write(
        hparams.resolve("events.out.tfevents.3.host"),
        new TfEventsFiles().hparamsSessionStart(W, "group-a", "lr", 0.5).bytes());
    Path b = Files.createDirectories(logdir.resolve("run-b"));
    Files.write(
        b.resolve("events.out.tfevents.2.host"),
        new TfEventsFiles().scalar(W + 3, 10, "eval/acc", 0.875f).bytes());
    return logdir;
  }

  @Test
  void endpointsAnswerForAWatchedLogdir() throws Exception {
    Path logdir = writeLogdir();
    String l = logdir.toString();
    try (FlightdeckServerProcess server = watching(logdir)) {
      String runs =
          "{\"status\":\"success\",\"data\":["
              + ("{\"logdir\":\"" + l + "\",\"run\":\"run-a\",\"tags\":[")
              + "{\"tag\":\"notes/text_summary\",\"kind\":\"text\",\"min_step\":0,\"max_step\":5},"
              + "{\"tag\":\"samples\",\"kind\":\"image\",\"min_step\":1,\"max_step\":1},"
              + "{\"tag\":\"train/loss\",\"kind\":\"scalar\",\"min_step\":0,\"max_step\":2},"
              + "{\"tag\":\"weights\",\"kind\":\"histogram\",\"min_step\":0,\"max_step\":2}]},"
              + ("{\"logdir\":\"" + l + "\",\"run\":\"run-b\",\"tags\":[")
              + "{\"tag\":\"eval/acc\",\"kind\":\"scalar\",\"min_step\":10,\"max_step\":10}]}]}";
      awaitBody(server, "/api/v1/tensorboard/runs", runs);

      assertThat(get(server, "scalars", "logdir", l, "run", "run-a", "tag", "train/loss"))
          .isEqualTo(
              "{\"status\":\"success\",\"data\":[[0,%d,\"2.5\"],[1,%d.250,\"1.5\"],[2,%d,\"0.75\"]]}"
                  .formatted(W, W + 1, W + 2));
      assertThat(get(server, "histograms", "logdir", l, "run", "run-a", "tag", "weights"))
          .isEqualTo(
              ("{\"status\":\"success\",\"data\":["
                      + "{\"step\":0,\"wall_time\":%d,\"count\":\"4\",\"sum\":\"2\",\"buckets\":["
                      + "[\"-Inf\",\"0.5\",\"1\"],[\"0.5\",\"1\",\"2\"],[\"1\",\"+Inf\",\"1\"]]},"
                      + "{\"step\":2,\"wall_time\":%d,\"count\":\"4\",\"sum\":\"3.5\",\"buckets\":["
                      + "[\"-Inf\",\"0.5\",\"0\"],[\"0.5\",\"1\",\"3\"],[\"1\",\"+Inf\",\"1\"]]}]}")
                  .formatted(W, W + 2));
      String goodbye =
          ("{\"logdir\":\"" + l + "\",\"run\":\"run-a\",\"tag\":\"notes/text_summary\",")
              + "\"step\":5,\"wall_time\":%d.5,\"values\":[\"goodbye world\"]}".formatted(W + 2);
      assertThat(
              get(
                  server,
                  "text",
                  "logdir",
                  l,
                  "run",
                  "run-a",
                  "tag",
                  "notes/text_summary",
                  "min_step",
                  "1"))
          .isEqualTo("{\"status\":\"success\",\"data\":[" + goodbye + "]}");
      assertThat(get(server, "text/search", "q", "world", "limit", "1"))
          .isEqualTo(
              ("{\"status\":\"success\",\"data\":[{\"logdir\":\"" + l + "\",\"run\":\"run-a\",")
                  + ("\"tag\":\"notes/text_summary\",\"step\":0,\"wall_time\":%d.5,".formatted(W))
                  + "\"values\":[\"hello world\"]}],"
                  + "\"warnings\":[\"results truncated due to limit\"]}");
      assertThat(get(server, "text/search", "q", "goodbye"))
          .isEqualTo("{\"status\":\"success\",\"data\":[" + goodbye + "]}");
      String url =
          "/api/v1/tensorboard/image?logdir="
              + URLEncoder.encode(l, StandardCharsets.UTF_8)
              + "\\u0026run=run-a\\u0026tag=samples\\u0026step=1\\u0026index=0";
      assertThat(get(server, "images", "logdir", l, "run", "run-a", "tag", "samples"))
          .isEqualTo(
              ("{\"status\":\"success\",\"data\":[{\"step\":1,\"wall_time\":%d,\"index\":0,"
                      + "\"width\":2,\"height\":3,\"content_type\":\"image/png\",\"bytes\":9,"
                      + "\"url\":\"%s\"}]}")
                  .formatted(W + 1, url));
      HttpResponse<byte[]> image =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(server.uri(url.replace("\\u0026", "&"))).build(),
                  HttpResponse.BodyHandlers.ofByteArray());
      assertThat(image.statusCode()).isEqualTo(200);
      assertThat(image.headers().firstValue("Content-Type")).hasValue("image/png");
      assertThat(image.body()).isEqualTo(PNG);
      assertThat(
              get(
                  server, "image", "logdir", l, "run", "run-a", "tag", "samples", "step", "2",
                  "index", "0"))
          .contains("\"errorType\":\"not_found\"");
      assertThat(get(server, "hparams", "logdir", l))
          .isEqualTo(
              ("{\"status\":\"success\",\"data\":[{\"logdir\":\"" + l + "\",\"run\":\"run-a\",")
                  + "\"hparams\":{\"lr\":0.5},\"group_name\":\"group-a\",\"hparam_names\":[],"
                  + "\"metric_tags\":[],\"status\":\"\"}]}");
      assertThat(get(server, "scalars", "logdir", l, "run", "run-a"))
          .isEqualTo(
              "{\"status\":\"error\",\"errorType\":\"bad_data\","
                  + "\"error\":\"invalid parameter \\\"tag\\\": missing or empty\"}");
    }
  }

  /**
   * A tag whose edges move at every step (as TF2 and NumPy's {@code bins='auto'} write them) is
   * stored as its distribution once it passes the ingester's bound on distinct edges; the histogram
   * view still gets each point's own bins, exactly.
   */
  @Test
  void histogramsWhoseEdgesMoveKeepTheirExactBins() throws Exception {
    Path logdir = Files.createDirectories(dir.resolve("logs"));
    Path run = Files.createDirectories(logdir.resolve("run-m"));
    TfEventsFiles events = new TfEventsFiles();
    int steps = 40;
    for (int step = 0; step < steps; step++) {
      // 30 bins of a quarter from 10 x step: every step brings 30 new edges.
      double[] limits = new double[30];
      double[] counts = new double[30];
      for (int i = 0; i < 30; i++) {
        limits[i] = step * 10 + (i + 1) / 4.0;
        counts[i] = i % 3;
      }
      counts[0] = 1;
      counts[29] = 2;
      events.histogram(W + step, step, "moving", step * 10, limits[29], 1, limits, counts);
    }
    Files.write(run.resolve("events.out.tfevents.1.host"), events.bytes());
    String l = logdir.toString();
    try (FlightdeckServerProcess server = watching(logdir)) {
      JsonNode points = awaitHistogramPoints(server, l, steps);
      JsonNode last = points.get(steps - 1);
      assertThat(last.path("distribution").size()).as("stored as its distribution").isEqualTo(9);
      JsonNode bins = last.path("buckets");
      assertThat(bins.size()).isEqualTo(30);
      for (int i = 0; i < 30; i++) {
        double lower = (steps - 1) * 10 + i / 4.0;
        assertThat(bins.get(i).get(0).asDouble()).isEqualTo(lower);
        assertThat(bins.get(i).get(1).asDouble()).isEqualTo(lower + 0.25);
        double count = i == 0 ? 1 : i == 29 ? 2 : i % 3;
        assertThat(bins.get(i).get(2).asDouble()).as("bin %d", i).isEqualTo(count);
      }
      assertThat(points.get(0).has("distribution"))
          .as("the first points keep their bounds")
          .isFalse();
    }
  }

  private static JsonNode awaitHistogramPoints(
      FlightdeckServerProcess server, String logdir, int count) throws Exception {
    long deadline = System.nanoTime() + PICKUP.toNanos();
    JsonNode points = null;
    while (System.nanoTime() < deadline) {
      String body = get(server, "histograms", "logdir", logdir, "run", "run-m", "tag", "moving");
      points = new ObjectMapper().readTree(body).path("data");
      if (points.size() == count) {
        return points;
      }
      Thread.sleep(100);
    }
    assertThat(points).as("histogram points after %s", PICKUP).hasSize(count);
    return points;
  }

  @Test
  void importStoresTextSamplesImagesAndHParams() throws Exception {
    Path logdir = writeLogdir();
    Path data = dir.resolve("data");
    StringWriter out = new StringWriter();
    int code =
        Main.commandLine()
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(new StringWriter()))
            .execute(
                "import",
                "tensorboard",
                logdir.toString(),
                "--storage.tsdb.path=" + data,
                "--output=json");

    assertThat(code).isZero();
    assertThat(out.toString())
        .contains("\"text_points\":2,\"image_points\":1,\"hparams_points\":1,\"skipped\":0");
    try (FileImageStore images = FileImageStore.open(data, logdir.toString());
        FileHParamsStore hparams = FileHParamsStore.open(data, logdir.toString())) {
      assertThat(images.read("run-a", "samples", 1, 0)).hasValue(PNG);
      assertThat(hparams.runs())
          .extracting(RunHParams::run, RunHParams::hparams)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("run-a", Map.of("lr", 0.5)));
    }
    try (FileTextStore texts = FileTextStore.open(data, logdir.toString())) {
      assertThat(texts.fetch("run-a", "notes/text_summary", 0, 10))
          .extracting(TextSample::step, TextSample::values)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple(0L, List.of("hello world")),
              org.assertj.core.groups.Tuple.tuple(5L, List.of("goodbye world")));
    }
  }

  /** A ready server on an empty data directory, watching the logdir. */
  private FlightdeckServerProcess watching(Path logdir) throws Exception {
    FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--tensorboard.logdir=" + logdir,
            "--tensorboard.poll-interval=200ms");
    try {
      server.awaitReady();
    } catch (Exception | AssertionError e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static String get(FlightdeckServerProcess server, String endpoint, String... params)
      throws Exception {
    StringBuilder query = new StringBuilder();
    for (int i = 0; i < params.length; i += 2) {
      query.append(query.isEmpty() ? "?" : "&");
      query.append(params[i]).append('=');
      query.append(URLEncoder.encode(params[i + 1], StandardCharsets.UTF_8));
    }
    return TestHttp.get(server.uri("/api/v1/tensorboard/" + endpoint + query)).body();
  }

  /** Polls until the body is the expected one: the watcher reads the logdir in the background. */
  private static void awaitBody(FlightdeckServerProcess server, String path, String expected)
      throws Exception {
    long deadline = System.nanoTime() + PICKUP.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      last = TestHttp.get(server.uri(path)).body();
      if (last.equals(expected)) {
        return;
      }
      Thread.sleep(100);
    }
    assertThat(last).as("%s after %s", path, PICKUP).isEqualTo(expected);
  }
}
