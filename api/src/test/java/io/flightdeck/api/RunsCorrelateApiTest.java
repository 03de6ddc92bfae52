package io.flightdeck.api;

import static io.flightdeck.api.CockpitTestJson.data;
import static io.flightdeck.api.CockpitTestJson.list;
import static io.flightdeck.api.CockpitTestJson.object;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.training.RunCatalog;
import io.flightdeck.training.RunCatalogOptions;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.LongToDoubleFunction;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * "What moved with this?" over HTTP's handler: the throughput of a run whose node-1 link saturates
 * four minutes in five is explained by that link first; bad bodies and targets are refused by name.
 */
class RunsCorrelateApiTest {
  static final long T0 = RunsApiTest.T0;
  static final long HOURS_2 = 7200;
  static final long ONSET = 3600;

  private final MemoryStorage storage = storage();
  private final RunsCorrelateApi api =
      new RunsCorrelateApi(
          new Engine(EngineOptions.DEFAULT),
          storage,
          new RunCatalog(
              storage,
              new ManualClock(T0 + HOURS_2 * 1000),
              (run -> io.flightdeck.training.RunHParams.Declared.NOTHING),
              RunCatalogOptions.DEFAULT));

  static boolean saturated(long s) {
    return s >= ONSET && (s - ONSET) % 300 < 240;
  }

  static void add(MemoryStorage storage, Labels labels, LongToDoubleFunction f) {
    long[] seconds = LongStream.iterate(0, s -> s <= HOURS_2, s -> s + 15).toArray();
    storage.add(
        labels,
        LongStream.of(seconds).map(s -> T0 + s * 1000).toArray(),
        LongStream.of(seconds).mapToDouble(f).toArray());
  }

  /** Two nodes, two ranks each; node_exporter and dcgm-exporter series with seeded noise. */
  static MemoryStorage storage() {
    MemoryStorage storage = new MemoryStorage();
    Random random = new Random(3);
    for (int node = 0; node < 2; node++) {
      String host = "node-" + node;
      for (int rank = 0; rank < 2; rank++) {
        Labels id =
            Labels.of(
                "run",
                "fsdp",
                "Hostname",
                host,
                "instance",
                host + ":808" + rank,
                "local_rank",
                "" + rank);
        add(
            storage,
            id.toBuilder().set("__name__", "training_samples_per_second").build(),
            s -> 7.5 * (saturated(s) ? 0.35 : 1) + 0.1 * random.nextGaussian());
        add(
            storage,
            id.toBuilder().set("__name__", "train_loss").build(),
            s -> 1 + Math.exp(-s / 3000.0) + 0.02 * random.nextGaussian());
        add(
            storage,
            Labels.of(
                "__name__",
                "DCGM_FI_DEV_GPU_UTIL",
                "Hostname",
                host,
                "gpu",
                "" + rank,
                "instance",
                host + ":9400"),
            s -> 97 + random.nextGaussian());
      }
      int n = node;
      double[] received = {0};
      add(
          storage,
          Labels.of(
              "__name__",
              "node_network_receive_bytes_total",
              "device",
              "eth0",
              "instance",
              host + ":9100"),
          s -> {
            double rate = n == 1 && saturated(s) ? 1.24e9 : 5e8 + 2e7 * random.nextGaussian();
            return received[0] += 15 * rate;
          });
      add(
          storage,
          Labels.of("__name__", "node_memory_MemAvailable_bytes", "instance", host + ":9100"),
          s -> 3e11 + 1e8 * random.nextGaussian());
    }
    return storage;
  }

  private FakeExchange post(String run, String json) {
    FakeExchange exchange = new FakeExchange().post(json).pathParam("run", run);
    ApiRoute route = api.routes().get(0);
    assertEquals("POST", route.method());
    assertEquals("/api/v1/runs/<run>/correlate", route.path());
    route.handler().handle(exchange);
    return exchange;
  }

  private static String body(String target, long startS, long endS) {
    return "{\"target\":\""
        + target.replace("\"", "\\\"")
        + "\",\"start\":"
        + (T0 / 1000 + startS)
        + ",\"end\":"
        + (T0 / 1000 + endS)
        + "}";
  }

  @Test
  void throughputFallingWhenTheNetworkPeaksIsExplainedByTheNetwork() {
    FakeExchange exchange =
        post("fsdp", body("avg(training_samples_per_second{run=\"fsdp\"})", 3300, 6300));
    assertEquals(200, exchange.status, exchange.body);
    List<Object> movers = list(data(exchange));
    Map<String, Object> top = object(movers.get(0));
    Map<String, Object> metric = object(top.get("metric"));
    assertEquals("node_network_receive_bytes_total", metric.get("__name__"), exchange.body);
    assertEquals("node-1:9100", metric.get("instance"));
    assertEquals(-1, ((Number) top.get("sign")).intValue());
    assertEquals(0.0, ((Number) top.get("lag_seconds")).doubleValue());
    double score = ((Number) top.get("score")).doubleValue();
    assertTrue(score > 0.5 && score <= 1, exchange.body);
    for (Object mover : movers) {
      assertTrue(
          !"training_samples_per_second"
              .equals(object(object(mover).get("metric")).get("__name__")),
          "the target's own series are no candidates");
    }
  }

  @Test
  void anUnknownRunIsNotFound() {
    FakeExchange exchange = post("nope", body("up", 0, 600));
    assertEquals(404, exchange.status);
    assertTrue(exchange.body.contains("run \\\"nope\\\" not found"), exchange.body);
  }

  @Test
  void badBodiesAndTargetsAreRefusedByName() {
    assertRefused(post("fsdp", ""), "no JSON body");
    assertRefused(post("fsdp", "{\"target\":"), "invalid JSON body at line 1");
    assertRefused(post("fsdp", "{\"start\":1,\"end\":2}"), "invalid field target: is missing");
    assertRefused(post("fsdp", "{\"target\":\"up\",\"end\":2}"), "invalid field start");
    assertRefused(post("fsdp", body("up", 600, 600)), "invalid field end: must be after start");
    assertRefused(post("fsdp", body("sum(", 0, 600)), "invalid field target: \\\"sum(\\\"");
    assertRefused(
        post("fsdp", body("\"text\"", 0, 600)), "invalid field target: invalid expression type");
    assertRefused(post("fsdp", body("no_such_metric", 0, 600)), "gives no value");
  }

  private static void assertRefused(FakeExchange exchange, String says) {
    assertEquals(400, exchange.status, exchange.body);
    assertTrue(exchange.body.contains("bad_data"), exchange.body);
    assertTrue(exchange.body.contains(says), exchange.body);
  }
}
