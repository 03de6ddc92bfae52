package io.flightdeck.api;

import static io.flightdeck.api.CockpitTestJson.data;
import static io.flightdeck.api.CockpitTestJson.list;
import static io.flightdeck.api.CockpitTestJson.object;
import static io.flightdeck.api.CockpitTestJson.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class CockpitSeriesApiTest {
  static final long T0 = RunsApiTest.T0;

  private final MemoryStorage storage = RunsApiTest.storage();
  private final CockpitSeriesApi api =
      new CockpitSeriesApi(
          new Engine(EngineOptions.DEFAULT), storage, RunsApiTest.catalog(storage));

  private FakeExchange post(String json) {
    FakeExchange exchange = new FakeExchange().post(json);
    ApiRoute route = api.routes().get(0);
    assertEquals("POST", route.method());
    assertEquals("/api/v1/cockpit/series", route.path());
    route.handler().handle(exchange);
    return exchange;
  }

  private static String request(long startS, long endS, int width, String... queries) {
    return "{\"start\":"
        + startS
        + ",\"end\":"
        + endS
        + ",\"width\":"
        + width
        + ",\"queries\":["
        + String.join(",", queries)
        + "]}";
  }

  private Map<String, Object> onlyResult(FakeExchange exchange) {
    assertEquals(200, exchange.status, exchange.body);
    List<Object> results = list(object(data(exchange)).get("results"));
    assertEquals(1, results.size());
    return object(results.get(0));
  }

  @Test
  void downsamplingKeepsASingleSampleSpike() {
    int n = 10_000;
    long[] times = LongStream.range(0, n).map(i -> T0 + i * 1000).toArray();
    double[] values = new double[n];
    java.util.Arrays.fill(values, 1.0);
    values[4321] = 100.0;
    storage.add(Labels.of("__name__", "grad_norm", "run", "a"), times, values);
    Map<String, Object> result =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + n,
                    100,
                    "{\"id\":\"g\",\"expr\":\"grad_norm{run=\\\"a\\\"}\",\"x\":\"time\"}")));
    assertNull(result.get("error"));
    assertEquals((double) n, result.get("points"));
    Map<String, Object> series = object(list(result.get("series")).get(0));
    assertEquals(Map.of("__name__", "grad_norm", "run", "a"), series.get("metric"));
    List<Object> max = list(series.get("max"));
    assertEquals(100, max.size(), "one entry per bucket");
    assertEquals(1, max.stream().filter(v -> (Double) v == 100.0).count(), "the spike survives");
    assertTrue(list(series.get("min")).stream().allMatch(v -> (Double) v == 1.0));
    assertEquals(list(series.get("x")).size(), list(series.get("last")).size());
  }

  @Test
  void nonFiniteValuesAreWrittenAsPrometheusStrings() {
    storage.add(
        Labels.of("__name__", "odd"),
        new long[] {T0, T0 + 1000, T0 + 2000},
        new double[] {1, Double.POSITIVE_INFINITY, Double.NaN});
    Map<String, Object> series =
        object(
            list(onlyResult(
                        post(
                            request(
                                T0 / 1000, T0 / 1000 + 10, 1, "{\"id\":\"o\",\"expr\":\"odd\"}")))
                    .get("series"))
                .get(0));
    assertEquals(List.of(1.0), series.get("min"), "NaN is neither a minimum nor a maximum");
    assertEquals(List.of("+Inf"), series.get("max"));
    assertEquals(List.of("NaN"), series.get("last"));
  }

  @Test
  void aBandNamesTheOutlier() {
    long[] times = LongStream.range(0, 60).map(i -> T0 + i * 15_000).toArray();
    for (int gpu = 0; gpu < 8; gpu++) {
      double level = gpu == 5 ? 10 : 90 + gpu;
      storage.add(
          Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "Hostname", "node-0", "gpu", "" + gpu),
          times,
          LongStream.range(0, 60).mapToDouble(i -> level).toArray());
    }
    Map<String, Object> result =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + 900,
                    30,
                    "{\"id\":\"util\",\"expr\":\"DCGM_FI_DEV_GPU_UTIL\",\"aggregate\":\"band\"}")));
    Map<String, Object> band = object(result.get("band"));
    assertEquals(10.0, list(band.get("min")).get(0));
    assertEquals(97.0, list(band.get("max")).get(0));
    // 10, 90, 91, 92, 93, 94, 96, 97: the median of eight is the mean of the middle two.
    assertEquals(92.5, list(band.get("median")).get(0));
    List<Object> outliers = list(band.get("outliers"));
    assertEquals("5", object(object(outliers.get(0)).get("metric")).get("gpu"));
    assertEquals(3, outliers.size());
    assertEquals(List.of(), result.get("series"));
  }

  @Test
  void autoDrawsABandOnlyWhenThereAreMoreSeriesThanAChartTellsApart() {
    long[] times = LongStream.range(0, 60).map(i -> T0 + i * 15_000).toArray();
    for (int rank = 0; rank < 16; rank++) {
      double level = rank == 11 ? 9 : 2 + rank * 0.001;
      int r = rank;
      storage.add(
          Labels.of("__name__", "rank_loss", "rank", "" + rank),
          times,
          // Rank 3's loss turns NaN at the end: the band has no place for it, its count does.
          LongStream.range(0, 60)
              .mapToDouble(i -> r == 3 && i >= 58 ? Double.NaN : level)
              .toArray());
    }
    for (int host = 0; host < 3; host++) {
      storage.add(
          Labels.of("__name__", "host_cpu", "host", "node-" + host),
          times,
          LongStream.range(0, 60).mapToDouble(i -> 50).toArray());
    }
    for (int metric = 0; metric < 9; metric++) {
      storage.add(
          Labels.of("__name__", "eval_metric_" + metric, "run", "r"),
          times,
          LongStream.range(0, 60).mapToDouble(i -> 0.5).toArray());
    }
    List<Object> results =
        list(
            object(
                    data(
                        post(
                            request(
                                T0 / 1000,
                                T0 / 1000 + 900,
                                30,
                                "{\"id\":\"loss\",\"expr\":\"rank_loss\",\"aggregate\":\"auto\"}",
                                "{\"id\":\"cpu\",\"expr\":\"host_cpu\",\"aggregate\":\"auto\"}",
                                "{\"id\":\"eval\",\"expr\":\"{__name__=~\\\"eval_metric_.*\\\"}\","
                                    + "\"aggregate\":\"auto\"}"))))
                .get("results"));
    Map<String, Object> loss = object(results.get(0));
    Map<String, Object> band = object(loss.get("band"));
    assertEquals(9.0, list(band.get("max")).get(0));
    assertEquals(
        "11",
        object(object(list(band.get("outliers")).get(0)).get("metric")).get("rank"),
        "sixteen ranks become a band with the odd rank named");
    List<Object> nonFinite = list(band.get("nonfinite"));
    assertEquals(0.0, nonFinite.get(0));
    assertEquals(1.0, nonFinite.get(nonFinite.size() - 1), "rank 3's NaN is counted");
    Map<String, Object> cpu = object(results.get(1));
    assertNull(cpu.get("band"), "three hosts are drawn one by one");
    assertEquals(3, list(cpu.get("series")).size());
    Map<String, Object> eval = object(results.get(2));
    assertNull(eval.get("band"), "nine different metrics are not one band");
    assertEquals(9, list(eval.get("series")).size());
  }

  @Test
  void seriesAreDrawnAgainstTheRunsSteps() {
    // Run a: 1 step/s, restarting at 600 s from step 500; its loss is sampled every 15 s.
    Map<String, Object> result =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + 1200,
                    2000,
                    "{\"id\":\"loss\",\"expr\":\"llm_train_loss\",\"x\":\"step\",\"run\":\"a\"}")));
    List<Object> x = list(object(list(result.get("series")).get(0)).get("x"));
    assertEquals(0.0, x.get(0));
    assertTrue(x.contains(585.0));
    assertTrue(x.contains(1100.0));
    // Steps 500..585 were run twice; both passes fall in the same buckets, the later one last.
    assertEquals(x.size(), x.stream().distinct().count());
    Map<String, Object> relative =
        onlyResult(
            post(
                request(
                    T0 / 1000 + 60,
                    T0 / 1000 + 1200,
                    100,
                    "{\"id\":\"r\",\"expr\":\"llm_train_loss\",\"x\":\"relative\",\"run\":\"a\"}")));
    List<Object> rx = list(object(list(relative.get("series")).get(0)).get("x"));
    assertEquals(60.0, rx.get(0), "seconds since the run was first seen");
  }

  @Test
  void anExpressionIsEvaluatedAsARangeQuery() {
    Map<String, Object> result =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + 1200,
                    100,
                    "{\"id\":\"sum\",\"expr\":\"sum(llm_train_max_steps) * 2\"}")));
    Map<String, Object> series = object(list(result.get("series")).get(0));
    assertEquals(Map.of(), series.get("metric"));
    assertTrue(list(series.get("max")).stream().allMatch(v -> (Double) v == 4000.0));
  }

  @Test
  void anOrOfSelectorsIsReadAsStoredSamplesWithTheLeftSideWinningASharedSeries() {
    // Every sample of a 1 s series counts, as for a plain selector (a step evaluation would see
    // a quarter of a bucket's worth); the right side's series that matches a left one is left out.
    int n = 1_000;
    long[] times = LongStream.range(0, n).map(i -> T0 + i * 1000).toArray();
    double[] ones = new double[n];
    java.util.Arrays.fill(ones, 1.0);
    double[] spiky = ones.clone();
    spiky[501] = 50.0;
    storage.add(Labels.of("__name__", "metric_loss", "run", "a", "rank", "0"), times, spiky);
    storage.add(Labels.of("__name__", "tb_loss", "run", "a", "rank", "0"), times, ones);
    storage.add(Labels.of("__name__", "tb_loss", "run", "a", "rank", "1"), times, ones);
    Map<String, Object> result =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + n,
                    10,
                    "{\"id\":\"l\",\"expr\":\"(metric_loss{run=\\\"a\\\"}) or tb_loss{run=\\\"a\\\"}\"}")));
    assertNull(result.get("error"));
    assertEquals(2.0 * n, result.get("points"), "raw samples of two series, not step values");
    List<Object> series = list(result.get("series"));
    assertEquals(
        List.of(
            Map.of("__name__", "metric_loss", "run", "a", "rank", "0"),
            Map.of("__name__", "tb_loss", "run", "a", "rank", "1")),
        series.stream().map(one -> object(one).get("metric")).toList());
    assertTrue(list(object(series.get(0)).get("max")).contains(50.0), "the 1 s spike survives");
  }

  @Test
  void anOrMatchesSeriesOnTheLabelsItNames() {
    long[] times = {T0, T0 + 1000};
    storage.add(Labels.of("__name__", "a_loss", "run", "a", "job", "x"), times, new double[2]);
    storage.add(Labels.of("__name__", "b_loss", "run", "a", "job", "y"), times, new double[2]);
    Map<String, Object> on =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + 10,
                    10,
                    "{\"id\":\"l\",\"expr\":\"a_loss or on (run) b_loss\"}")));
    assertEquals(1, list(on.get("series")).size(), "on (run): b_loss's run is taken by a_loss");
    Map<String, Object> all =
        onlyResult(
            post(
                request(
                    T0 / 1000,
                    T0 / 1000 + 10,
                    10,
                    "{\"id\":\"l\",\"expr\":\"a_loss or b_loss\"}")));
    assertEquals(2, list(all.get("series")).size(), "the job label tells them apart");
  }

  @Test
  void aQuerysOwnFailureIsItsErrorAndTheOthersStillAnswer() {
    for (int i = 0; i < 501; i++) {
      storage.add(Labels.of("__name__", "many", "i", "" + i), new long[] {T0}, new double[] {1});
    }
    FakeExchange exchange =
        post(
            request(
                T0 / 1000,
                T0 / 1000 + 60,
                10,
                "{\"id\":\"many\",\"expr\":\"many\"}",
                "{\"id\":\"bad\",\"expr\":\"rate(\"}",
                "{\"id\":\"norun\",\"expr\":\"many\",\"x\":\"step\",\"run\":\"zz\",\"aggregate\":\"band\"}",
                "{\"id\":\"ok\",\"expr\":\"llm_train_max_steps\"}"));
    assertEquals(200, exchange.status);
    List<Object> results = list(object(data(exchange)).get("results"));
    assertEquals(
        "query \"many\" returned 501 series, more than the 500 a chart draws;"
            + " use aggregate=band (or auto) or narrow the selector",
        object(results.get(0)).get("error"));
    assertTrue(((String) object(results.get(1)).get("error")).startsWith("invalid expression"));
    assertEquals("run \"zz\" not found", object(results.get(2)).get("error"));
    assertNull(object(results.get(3)).get("error"));
  }

  @Test
  void aBadBodyIs400NamingTheField() {
    assertBadData(post("{\"start\": 1,"), "invalid JSON body at line 1, column");
    assertBadData(
        post("{\"start\":1,\"end\":2,\"queries\":[]}"), "invalid field \"width\": is required");
    assertBadData(
        post(request(1, 2, 10, "{\"id\":\"a\"}")),
        "invalid field \"queries[0].expr\": is required");
    assertBadData(
        post(
            request(
                1,
                2,
                10,
                "{\"id\":\"a\",\"expr\":\"up\"}",
                "{\"id\":\"b\",\"expr\":\"up\",\"x\":\"steps\"}")),
        "invalid field \"queries[1].x\": must be time, step or relative, not \"steps\"");
    assertBadData(
        post(request(1, 2, 10, "{\"id\":\"a\",\"expr\":\"up\",\"x\":\"step\"}")),
        "invalid field \"queries[0].run\": is required when x is step");
    assertBadData(post(request(1, 2, 0)), "invalid field \"width\": must be a whole number");
    assertBadData(post(request(5, 2, 10)), "invalid field \"end\": must be after start");
    assertBadData(
        post("{\"start\":\"soon\",\"end\":2,\"width\":1,\"queries\":[]}"),
        "invalid field \"start\"");
    assertBadData(post(""), "the request has no JSON body");
  }

  private static void assertBadData(FakeExchange exchange, String prefix) {
    assertEquals(400, exchange.status, exchange.body);
    Map<String, Object> error = object(parse(exchange.body));
    assertEquals("bad_data", error.get("errorType"));
    assertTrue(((String) error.get("error")).startsWith(prefix), exchange.body);
  }
}
