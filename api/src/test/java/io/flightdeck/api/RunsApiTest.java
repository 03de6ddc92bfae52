package io.flightdeck.api;

import static io.flightdeck.api.CockpitTestJson.data;
import static io.flightdeck.api.CockpitTestJson.list;
import static io.flightdeck.api.CockpitTestJson.object;
import static io.flightdeck.api.CockpitTestJson.parse;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.training.RunCatalog;
import io.flightdeck.training.RunCatalogOptions;
import java.util.List;
import java.util.Map;
import java.util.function.LongToDoubleFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class RunsApiTest {
  static final long T0 = 1_765_100_000_000L;
  static final long NOW = T0 + 1_200_000;

  /** Adds a series sampled every 15 s over the 20 minutes to now. */
  static void add(MemoryStorage storage, Labels labels, long fromSeconds, LongToDoubleFunction f) {
    long[] seconds = LongStream.iterate(fromSeconds, s -> s <= 1200, s -> s + 15).toArray();
    storage.add(
        labels,
        LongStream.of(seconds).map(s -> T0 + s * 1000).toArray(),
        LongStream.of(seconds).mapToDouble(f).toArray());
  }

  /**
   * {@code a}: scraped, 1 step/s, restarts at 600 s from step 500, max_steps 2000. {@code tb}: a
   * TensorBoard run whose max_steps come from its hparams, 0.5 steps/s.
   */
  static MemoryStorage storage() {
    MemoryStorage storage = new MemoryStorage();
    add(
        storage,
        Labels.of("__name__", "llm_train_step", "run", "a", "instance", "node-0:8000"),
        0,
        s -> s < 600 ? s : 500 + (s - 600));
    add(
        storage,
        Labels.of("__name__", "llm_train_max_steps", "run", "a", "instance", "node-0:8000"),
        0,
        s -> 2000);
    add(
        storage,
        Labels.of("__name__", "llm_train_loss", "run", "a", "instance", "node-0:8000"),
        0,
        s -> s == 1200 ? Double.NaN : 1.5);
    Labels tb = Labels.of("run", "tb", "tag", "train/loss", "logdir", "/logs");
    add(storage, tb.toBuilder().set("__name__", "tensorboard_scalar_step").build(), 0, s -> s / 2);
    add(storage, tb.toBuilder().set("__name__", "tensorboard_scalar").build(), 0, s -> 2.0);
    // What the training rule pack records from it, resampled: never preferred to the source.
    add(
        storage,
        Labels.of("__name__", "flightdeck:train_step", "run", "tb", "tag", "train/loss"),
        0,
        s -> s / 2 - 1);
    return storage;
  }

  static RunCatalog catalog(MemoryStorage storage) {
    TensorBoardHParams hparams =
        new TensorBoardHParams() {
          @Override
          public List<TensorBoardRunHParams> runs(String logdir) {
            return List.of(
                new TensorBoardRunHParams(
                    "/logs", "tb", Map.of("max_steps", 900.0), "", List.of(), List.of(), ""));
          }

          @Override
          public List<String> logdirs() {
            return List.of("/logs");
          }
        };
    return new RunCatalog(
        storage, new ManualClock(NOW), new RunsHParamsSource(hparams), RunCatalogOptions.DEFAULT);
  }

  private final RunCatalog catalog = catalog(storage());
  private final RunsApi api = new RunsApi(catalog, catalog::events, new ManualClock(NOW));

  private FakeExchange call(String path, String run, String... params) {
    FakeExchange exchange = new FakeExchange(params);
    if (run != null) {
      exchange.pathParam("run", run);
    }
    ApiRoute route =
        api.routes().stream().filter(r -> r.path().equals(path)).findFirst().orElseThrow();
    route.handler().handle(exchange);
    return exchange;
  }

  @Test
  void listsRunsWithTheContractsFields() {
    FakeExchange exchange = call("/api/v1/runs", null);
    assertEquals(200, exchange.status);
    assertEquals("application/json", exchange.contentType);
    List<Object> runs = list(data(exchange));
    assertEquals(2, runs.size());
    Map<String, Object> a =
        runs.stream()
            .map(CockpitTestJson::object)
            .filter(r -> r.get("run").equals("a"))
            .findFirst()
            .orElseThrow();
    assertEquals("running", a.get("status"));
    assertEquals(T0 / 1000.0, a.get("first_seen"));
    assertEquals(NOW / 1000.0, a.get("last_seen"));
    assertEquals(1100.0, a.get("step"));
    assertEquals(2000.0, a.get("max_steps"));
    assertEquals(1.0, (Double) a.get("steps_per_second"), 1e-9);
    // 900 steps left at 1 step/s, with the steps its restart redid counted as lost time: the
    // last scrape before the restart saw step 585 (at 585 s) and it went on from 500, so 85 steps
    // were redone: a goodput of 1115 steps in 1200 s.
    assertEquals(900 / (1115 / 1200.0), (Double) a.get("eta_seconds"), 1e-6);
    assertEquals("NaN", object(a.get("last")).get("loss"), "NaN is written as Prometheus does");
    assertNull(a.get("epoch"));
    assertEquals("llm_train_loss{run=\"a\"}", a.get("loss_metric"));
    assertEquals(List.of("node-0"), a.get("hosts"));
    assertEquals(List.of("scrape"), a.get("sources"));
    assertEquals(List.of(), a.get("alerts"));
  }

  @Test
  void maxStepsOfATensorBoardRunComeFromItsHParams() {
    Map<String, Object> tb = object(data(call("/api/v1/runs/<run>", "tb")));
    assertEquals(900.0, tb.get("max_steps"));
    assertEquals(600.0, tb.get("step"));
    // 300 steps left at 0.5 steps/s. The steps are whole (7 or 8 every 15 s), so a window that
    // starts on an odd scrape reads the pace a step off: within 0.5% here.
    assertEquals(600.0, (Double) tb.get("eta_seconds"), 3.0);
    assertEquals("tensorboard_scalar{run=\"tb\",tag=\"train/loss\"}", tb.get("loss_metric"));
    assertEquals("tensorboard_scalar_step{run=\"tb\",tag=\"train/loss\"}", tb.get("step_metric"));
    assertEquals(List.of("tensorboard"), tb.get("sources"));
  }

  @Test
  void matchFiltersByRegexAndABadOneIsRefusedByName() {
    List<Object> runs = list(data(call("/api/v1/runs", null, "match", "t.*")));
    assertEquals(1, runs.size());
    assertEquals("tb", object(runs.get(0)).get("run"));
    FakeExchange bad = call("/api/v1/runs", null, "match", "(a");
    assertEquals(400, bad.status);
    Map<String, Object> error = object(parse(bad.body));
    assertEquals("bad_data", error.get("errorType"));
    assertTrue(((String) error.get("error")).startsWith("invalid parameter \"match\""), bad.body);
  }

  @Test
  void anUnknownRunIs404NotFound() {
    for (String path :
        List.of("/api/v1/runs/<run>", "/api/v1/runs/<run>/stepmap", "/api/v1/runs/<run>/events")) {
      FakeExchange exchange = call(path, "nope");
      assertEquals(404, exchange.status, path);
      assertEquals(
          "{\"status\":\"error\",\"errorType\":\"not_found\",\"error\":\"run \\\"nope\\\" not found\"}",
          exchange.body);
    }
  }

  @Test
  void stepMapHasOneSegmentPerRestart() {
    Map<String, Object> map = object(data(call("/api/v1/runs/<run>/stepmap", "a")));
    List<Object> segments = list(map.get("segments"));
    assertEquals(2, segments.size());
    List<Object> second = list(object(segments.get(1)).get("points"));
    assertEquals(List.of((T0 + 600_000) / 1000.0, 500.0), second.get(0));
    // A range that ends before the restart has one segment.
    Map<String, Object> early =
        object(
            data(
                call(
                    "/api/v1/runs/<run>/stepmap",
                    "a",
                    "start",
                    Long.toString(T0 / 1000),
                    "end",
                    Long.toString(T0 / 1000 + 300))));
    assertEquals(1, list(early.get("segments")).size());
  }

  @Test
  void eventsNameTheRestartAndTheNonFiniteLoss() {
    List<Object> events = list(data(call("/api/v1/runs/<run>/events", "a")));
    List<Object> kinds = events.stream().map(e -> object(e).get("kind")).toList();
    assertEquals(List.of("restart", "nan"), kinds);
    Map<String, Object> restart = object(events.get(0));
    assertEquals((T0 + 600_000) / 1000.0, restart.get("time"));
    assertEquals(500.0, restart.get("step"));
    assertNull(restart.get("end"));
    assertEquals(585.0, object(restart.get("evidence")).get("from_step"));
  }

  @Test
  void aRangeEndingBeforeItStartsIsRefused() {
    FakeExchange exchange =
        call("/api/v1/runs/<run>/events", "a", "start", "2000000000", "end", "1");
    assertEquals(400, exchange.status);
    assertTrue(exchange.body.contains("invalid parameter \\\"end\\\""), exchange.body);
  }
}
