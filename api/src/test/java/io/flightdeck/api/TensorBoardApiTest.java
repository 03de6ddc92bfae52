package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The TensorBoard endpoints over a small in-memory store and fake text stores. */
class TensorBoardApiTest {
  private static final long T = 1_700_000_000_000L;
  private static final String LOGDIR = "/logs";

  private static Labels series(String metric, String run, String tag, String... extra) {
    Labels.Builder b =
        Labels.builder()
            .set("__name__", metric)
            .set("logdir", LOGDIR)
            .set("run", run)
            .set("tag", tag);
    for (int i = 0; i < extra.length; i += 2) {
      b.set(extra[i], extra[i + 1]);
    }
    return b.build();
  }

  private final MemoryStorage storage =
      new MemoryStorage()
          // Steps 1, 2, 3, then a restart at 2 and 3 again; the step at T+5 has no value.
          .add(
              series("tensorboard_scalar", "a", "loss"),
              new long[] {T, T + 1, T + 2, T + 3, T + 4},
              new double[] {5, 4, 3, 3.5, 2.5})
          .add(
              series("tensorboard_scalar_step", "a", "loss"),
              new long[] {T, T + 1, T + 2, T + 3, T + 4, T + 5},
              new double[] {1, 2, 3, 2, 3, 9})
          .add(series("tensorboard_scalar_step", "b", "lr"), new long[] {T}, new double[] {7})
          .add(series("tensorboard_scalar", "b", "lr"), new long[] {T}, new double[] {1e-7})
          // Bound 1 appears only at the second point; the third restarts at a lower step.
          .add(
              series("tensorboard_histogram_bucket", "a", "w", "le", "0.5"),
              new long[] {T, T + 1000, T + 2000},
              new double[] {2, 1, 1})
          .add(
              series("tensorboard_histogram_bucket", "a", "w", "le", "1"),
              new long[] {T + 1000, T + 2000},
              new double[] {4, 2})
          .add(
              series("tensorboard_histogram_bucket", "a", "w", "le", "+Inf"),
              new long[] {T, T + 1000, T + 2000},
              new double[] {3, 6, 3})
          .add(
              series("tensorboard_histogram_count", "a", "w"),
              new long[] {T, T + 1000, T + 2000},
              new double[] {3, 6, 3})
          .add(
              series("tensorboard_histogram_step", "a", "w"),
              new long[] {T, T + 1000, T + 2000},
              new double[] {10, 20, 15})
          .add(series("tensorboard_histogram_sum", "a", "w"), new long[] {T}, new double[] {1.25});

  private final FakeTexts texts =
      new FakeTexts()
          .add(LOGDIR, "a", "notes", 10, 1_700_000_000.25, "first \"sample\"")
          .add(LOGDIR, "a", "notes", 20, 1_700_000_001.5, "second", "row two")
          .add(LOGDIR, "c", "prompt", 3, 1_700_000_002, "a second run");

  private final FakeImages images =
      new FakeImages()
          .add(LOGDIR, "a", "samples", 5, 0, "x")
          .add(LOGDIR, "a", "samples", 5, 1, "y")
          .add(LOGDIR, "a", "samples", 8, 0, "z")
          .add(LOGDIR, "d", "a/b c", 1, 0, "w");

  private final TensorBoardHParams hparams =
      new TensorBoardHParams() {
        @Override
        public List<TensorBoardRunHParams> runs(String logdir) {
          return logdir.equals(LOGDIR)
              ? List.of(
                  new TensorBoardRunHParams(
                      LOGDIR,
                      "a",
                      new TreeMap<>(Map.of("lr", 0.001, "opt", "adam", "nesterov", true)),
                      "g1",
                      List.of("lr", "opt"),
                      List.of("hparam/accuracy"),
                      "STATUS_SUCCESS"))
              : List.of();
        }

        @Override
        public List<String> logdirs() {
          return List.of(LOGDIR);
        }
      };

  private final TensorBoardApi api = new TensorBoardApi(storage, texts, images, hparams);

  private FakeExchange get(String path, String... params) {
    return get(api, path, params);
  }

  private static FakeExchange get(TensorBoardApi api, String path, String... params) {
    FakeExchange exchange = new FakeExchange(params);
    api.routes().stream()
        .filter(r -> r.method().equals("GET") && r.path().equals("/api/v1/tensorboard" + path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route " + path))
        .handler()
        .handle(exchange);
    return exchange;
  }

  @Test
  void runsWithTagsKindsAndStepRanges() {
    FakeExchange r = get("/runs");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "{\"logdir\":\"/logs\",\"run\":\"a\",\"tags\":["
                + "{\"tag\":\"loss\",\"kind\":\"scalar\",\"min_step\":1,\"max_step\":9},"
                + "{\"tag\":\"notes\",\"kind\":\"text\",\"min_step\":10,\"max_step\":20},"
                + "{\"tag\":\"samples\",\"kind\":\"image\",\"min_step\":5,\"max_step\":8},"
                + "{\"tag\":\"w\",\"kind\":\"histogram\",\"min_step\":10,\"max_step\":15}]},"
                + "{\"logdir\":\"/logs\",\"run\":\"b\",\"tags\":["
                + "{\"tag\":\"lr\",\"kind\":\"scalar\",\"min_step\":7,\"max_step\":7}]},"
                + "{\"logdir\":\"/logs\",\"run\":\"c\",\"tags\":["
                + "{\"tag\":\"prompt\",\"kind\":\"text\",\"min_step\":3,\"max_step\":3}]},"
                + "{\"logdir\":\"/logs\",\"run\":\"d\",\"tags\":["
                + "{\"tag\":\"a/b c\",\"kind\":\"image\",\"min_step\":1,\"max_step\":1}]}]}");
  }

  @Test
  void imagesListWithAUrlThatFetchesTheBytes() {
    FakeExchange r =
        get("/images", "logdir", LOGDIR, "run", "a", "tag", "samples", "min_step", "6");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[{\"step\":8,\"wall_time\":1700000008,"
                + "\"index\":0,\"width\":4,\"height\":3,\"content_type\":\"image/png\","
                + "\"bytes\":1,\"url\":\"/api/v1/tensorboard/image?logdir=%2Flogs\\u0026run=a"
                + "\\u0026tag=samples\\u0026step=8\\u0026index=0\"}]}");
    assertThat(get("/images", "logdir", LOGDIR, "run", "d", "tag", "a/b c").body)
        .contains(
            "\"url\":\"/api/v1/tensorboard/image?logdir=%2Flogs\\u0026run=d"
                + "\\u0026tag=a%2Fb+c\\u0026step=1");

    FakeExchange image =
        get("/image", "logdir", LOGDIR, "run", "a", "tag", "samples", "step", "5", "index", "1");
    assertThat(image.status).isEqualTo(200);
    assertThat(image.contentType).isEqualTo("image/png");
    assertThat(image.body).isEqualTo("samples@5#1");
  }

  @Test
  void aMissingImageIsA404AndBadParametersA400() {
    FakeExchange missing =
        get("/image", "logdir", LOGDIR, "run", "a", "tag", "samples", "step", "6", "index", "0");
    assertThat(missing.status).isEqualTo(404);
    assertThat(missing.contentType).isEqualTo(ApiJson.CONTENT_TYPE);
    assertThat(missing.body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"not_found\",\"error\":"
                + "\"no image at step 6 index 0 [logdir=/logs, run=a, tag=samples]\"}");
    assertThat(get("/image", "logdir", LOGDIR, "run", "a", "tag", "samples").status).isEqualTo(400);
    assertThat(
            get(
                    "/image", "logdir", LOGDIR, "run", "a", "tag", "samples", "step", "5", "index",
                    "-1")
                .body)
        .contains("invalid parameter \\\"index\\\": not a non-negative integer: -1");
  }

  @Test
  void hparamsOfALogdirOrOfAll() {
    String expected =
        "{\"status\":\"success\",\"data\":[{\"logdir\":\"/logs\",\"run\":\"a\","
            + "\"hparams\":{\"lr\":0.001,\"nesterov\":true,\"opt\":\"adam\"},"
            + "\"group_name\":\"g1\",\"hparam_names\":[\"lr\",\"opt\"],"
            + "\"metric_tags\":[\"hparam/accuracy\"],\"status\":\"STATUS_SUCCESS\"}]}";
    assertThat(get("/hparams").body).isEqualTo(expected);
    assertThat(get("/hparams", "logdir", LOGDIR).body).isEqualTo(expected);
    assertThat(get("/hparams", "logdir", "/other").body)
        .isEqualTo("{\"status\":\"success\",\"data\":[]}");
  }

  @Test
  void scalarAgainstStepJoinsByTimestampAndDropsSupersededPoints() {
    FakeExchange r = get("/scalars", "logdir", LOGDIR, "run", "a", "tag", "loss");
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "[1,1700000000,\"5\"],[2,1700000000.003,\"3.5\"],[3,1700000000.004,\"2.5\"]]}");
    assertThat(get("/scalars", "logdir", LOGDIR, "run", "b", "tag", "lr").body)
        .isEqualTo("{\"status\":\"success\",\"data\":[[7,1700000000,\"1e-07\"]]}");
  }

  @Test
  void unknownSeriesIsEmptyAndMissingParametersAreBadData() {
    assertThat(get("/scalars", "logdir", LOGDIR, "run", "zz", "tag", "loss").body)
        .isEqualTo("{\"status\":\"success\",\"data\":[]}");
    FakeExchange r = get("/scalars", "logdir", LOGDIR, "run", "a");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"bad_data\","
                + "\"error\":\"invalid parameter \\\"tag\\\": missing or empty\"}");
  }

  @Test
  void histogramBucketsAreDecumulatedPerPointAndARestartSupersedesLaterSteps() {
    FakeExchange r = get("/histograms", "logdir", LOGDIR, "run", "a", "tag", "w");
    // Step 20 is superseded by the restart at step 15.
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "{\"step\":10,\"wall_time\":1700000000,\"count\":\"3\",\"sum\":\"1.25\","
                + "\"buckets\":[[\"-Inf\",\"0.5\",\"2\"],[\"0.5\",\"+Inf\",\"1\"]]},"
                + "{\"step\":15,\"wall_time\":1700000002,\"count\":\"3\",\"buckets\":["
                + "[\"-Inf\",\"0.5\",\"1\"],[\"0.5\",\"1\",\"1\"],[\"1\",\"+Inf\",\"1\"]]}]}");
  }

  @Test
  void aTagStoredAsItsDistributionFromSomePointOnListsItThere() {
    MemoryStorage switched =
        new MemoryStorage()
            // Buckets for the first point; at the second they end with a staleness marker.
            .add(
                series("tensorboard_histogram_bucket", "a", "m", "le", "+Inf"),
                new long[] {T, T + 1000},
                new double[] {4, io.flightdeck.model.StaleMarker.VALUE})
            .add(
                series("tensorboard_histogram_count", "a", "m"),
                new long[] {T, T + 1000},
                new double[] {4, 4})
            .add(
                series("tensorboard_histogram_step", "a", "m"),
                new long[] {T, T + 1000},
                new double[] {1, 2})
            .add(
                series("tensorboard_histogram_quantile", "a", "m", "quantile", "0"),
                new long[] {T + 1000},
                new double[] {-1})
            .add(
                series("tensorboard_histogram_quantile", "a", "m", "quantile", "0.5"),
                new long[] {T + 1000},
                new double[] {0.25})
            .add(
                series("tensorboard_histogram_quantile", "a", "m", "quantile", "1"),
                new long[] {T + 1000},
                new double[] {2});
    FakeExchange r = histogramsOfTagM(switched);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "{\"step\":1,\"wall_time\":1700000000,\"count\":\"4\","
                + "\"buckets\":[[\"-Inf\",\"+Inf\",\"4\"]]},"
                + "{\"step\":2,\"wall_time\":1700000001,\"count\":\"4\",\"buckets\":["
                + "[\"-1\",\"0.25\",\"2\"],[\"0.25\",\"2\",\"2\"]],\"distribution\":["
                + "[\"0\",\"-1\"],[\"0.5\",\"0.25\"],[\"1\",\"2\"]]}]}");
  }

  @Test
  void aDistributionPointWithItsBinsKeptShowsThemExactly() {
    long[] second = {T + 1000};
    MemoryStorage switched =
        new MemoryStorage()
            .add(series("tensorboard_histogram_count", "a", "m"), second, new double[] {5})
            .add(series("tensorboard_histogram_step", "a", "m"), second, new double[] {2})
            .add(
                series("tensorboard_histogram_quantile", "a", "m", "quantile", "0"),
                second,
                new double[] {-1})
            .add(
                series("tensorboard_histogram_quantile", "a", "m", "quantile", "1"),
                second,
                new double[] {2})
            .add(
                series("tensorboard_histogram_bin_edge", "a", "m", "edge", "0"),
                second,
                new double[] {-1})
            .add(
                series("tensorboard_histogram_bin_edge", "a", "m", "edge", "1"),
                second,
                new double[] {0.5})
            .add(
                series("tensorboard_histogram_bin_edge", "a", "m", "edge", "2"),
                second,
                new double[] {2})
            // Left over from an earlier, wider point: ended before this one.
            .add(
                series("tensorboard_histogram_bin_edge", "a", "m", "edge", "3"),
                new long[] {T},
                new double[] {3})
            .add(
                series("tensorboard_histogram_bin_count", "a", "m", "bin", "0"),
                second,
                new double[] {4})
            .add(
                series("tensorboard_histogram_bin_count", "a", "m", "bin", "1"),
                second,
                new double[] {1})
            .add(
                series("tensorboard_histogram_bin_count", "a", "m", "bin", "x"),
                second,
                new double[] {99});
    FakeExchange r = histogramsOfTagM(switched);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "{\"step\":2,\"wall_time\":1700000001,\"count\":\"5\",\"buckets\":["
                + "[\"-1\",\"0.5\",\"4\"],[\"0.5\",\"2\",\"1\"]],\"distribution\":["
                + "[\"0\",\"-1\"],[\"1\",\"2\"]]}]}");
  }

  /** The histograms of run "a", tag "m", from the given storage. */
  private FakeExchange histogramsOfTagM(MemoryStorage storage) {
    return get(
        new TensorBoardApi(storage, texts, images, hparams),
        "/histograms",
        "logdir",
        LOGDIR,
        "run",
        "a",
        "tag",
        "m");
  }

  @Test
  void textSamplesOfOneTagWithinAStepRange() {
    assertThat(get("/text", "logdir", LOGDIR, "run", "a", "tag", "notes", "min_step", "11").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[{\"logdir\":\"/logs\",\"run\":\"a\","
                + "\"tag\":\"notes\",\"step\":20,\"wall_time\":1700000001.5,"
                + "\"values\":[\"second\",\"row two\"]}]}");
    FakeExchange bad = get("/text", "logdir", LOGDIR, "run", "a", "tag", "notes", "max_step", "x");
    assertThat(bad.status).isEqualTo(400);
    assertThat(bad.body).contains("invalid parameter \\\"max_step\\\": not an integer step: x");
  }

  @Test
  void searchFindsSubstringsAndWarnsWhenTheLimitCuts() {
    FakeExchange all = get("/text/search", "q", "second");
    assertThat(all.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":["
                + "{\"logdir\":\"/logs\",\"run\":\"a\",\"tag\":\"notes\",\"step\":20,"
                + "\"wall_time\":1700000001.5,\"values\":[\"second\",\"row two\"]},"
                + "{\"logdir\":\"/logs\",\"run\":\"c\",\"tag\":\"prompt\",\"step\":3,"
                + "\"wall_time\":1700000002,\"values\":[\"a second run\"]}]}");
    assertThat(texts.lastSearchLimit).isEqualTo(Integer.MAX_VALUE);

    FakeExchange cut = get("/text/search", "q", "second", "limit", "1");
    assertThat(cut.body)
        .startsWith("{\"status\":\"success\",\"data\":[{\"logdir\":\"/logs\",\"run\":\"a\"")
        .endsWith("}],\"warnings\":[\"results truncated due to limit\"]}");
    assertThat(texts.lastSearchLimit).isEqualTo(2);

    assertThat(get("/text/search", "q", "\"sample\"").body).contains("\"step\":10");
    assertThat(get("/text/search").status).isEqualTo(400);
  }
}
