package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.dashboards.DashboardImporter;
import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.testkit.ManualClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shipped DCGM dashboard's variables resolved on real series and its queries interpolated. */
class DashboardsQueriesApiTest {
  @TempDir Path temp;

  private static Labels temp(String instance, String gpu) {
    return Labels.of("__name__", "DCGM_FI_DEV_GPU_TEMP", "instance", instance, "gpu", gpu);
  }

  @Test
  void variablesResolveAndQueriesCarryGrafanasStep() {
    long[] times = {1_000_000, 2_000_000};
    double[] values = {60, 61};
    MemoryStorage storage =
        new MemoryStorage()
            .add(temp("a:9400", "0"), times, values)
            .add(temp("a:9400", "1"), times, values)
            .add(temp("b:9400", "0"), times, values);
    ManualClock clock = new ManualClock(3_600_000L);
    try (DashboardStore store = DashboardStore.open(temp.resolve("d"), List.of(), clock)) {
      DashboardsQueriesApi api =
          new DashboardsQueriesApi(store, new Engine(EngineOptions.DEFAULT), storage, clock, "15s");
      FakeExchange exchange =
          new FakeExchange("from", "0", "to", "3600", "width", "1200", "var-instance", "a:9400")
              .pathParam("uid", "Oxed_c6Wz");
      api.routes().get(0).handler().handle(exchange);

      assertThat(exchange.status).isEqualTo(200);
      assertThat(exchange.body)
          .contains(
              "{\"name\":\"instance\",\"type\":\"query\",\"options\":[\"a:9400\",\"b:9400\"],\"selected\":[\"a:9400\"]}",
              "{\"name\":\"gpu\",\"type\":\"query\",\"options\":[\"0\",\"1\"],\"selected\":[\"$__all\"]}");
      // GPU Temperature, 18 of 24 columns of 1200 px: 900 points over an hour, 15 s.
      assertThat(exchange.body)
          .contains(
              "\"expr\":\"DCGM_FI_DEV_GPU_TEMP{instance=~\\\"a:9400\\\", gpu=~\\\"(0|1)\\\"}\","
                  + "\"legendFormat\":\"GPU {{gpu}}\",\"instant\":false,\"range\":true,\"hide\":false,"
                  + "\"format\":\"time_series\",\"interval\":\"15s\",\"step\":15.0,\"start\":0.0,\"end\":3600.0");

      FakeExchange missing = new FakeExchange().pathParam("uid", "nope");
      api.routes().get(0).handler().handle(missing);
      assertThat(missing.status).isEqualTo(404);
      FakeExchange badWidth = new FakeExchange("width", "wide").pathParam("uid", "Oxed_c6Wz");
      api.routes().get(0).handler().handle(badWidth);
      assertThat(badWidth.status).isEqualTo(400);
    }
  }

  @Test
  void repeatedRowsAndPanelsAreExpandedOncePerSelectedValue() {
    long[] times = {1_000_000, 2_000_000};
    double[] values = {60, 61};
    MemoryStorage storage =
        new MemoryStorage()
            .add(temp("a:9400", "0"), times, values)
            .add(temp("a:9400", "1"), times, values)
            .add(temp("b:9400", "0"), times, values);
    String grafana =
        """
        {"uid": "rep", "title": "Repeats", "schemaVersion": 39,
         "templating": {"list": [
           {"name": "instance", "type": "query", "query": "label_values(DCGM_FI_DEV_GPU_TEMP, instance)",
            "multi": true, "includeAll": true, "current": {"value": ["$__all"]}},
           {"name": "gpu", "type": "query", "query": "label_values(DCGM_FI_DEV_GPU_TEMP, gpu)",
            "multi": true, "includeAll": true, "current": {"value": ["$__all"]}}]},
         "panels": [
           {"id": 1, "type": "timeseries", "title": "GPU $gpu", "repeat": "gpu",
            "gridPos": {"x": 0, "y": 0, "w": 12, "h": 8},
            "targets": [{"refId": "A", "expr": "DCGM_FI_DEV_GPU_TEMP{gpu=\\"$gpu\\"}"}]},
           {"id": 2, "type": "row", "title": "Host $instance", "repeat": "instance", "collapsed": false,
            "gridPos": {"x": 0, "y": 8, "w": 24, "h": 1}},
           {"id": 3, "type": "stat", "title": "Hottest on $instance",
            "gridPos": {"x": 0, "y": 9, "w": 6, "h": 4},
            "targets": [{"refId": "A", "expr": "max(DCGM_FI_DEV_GPU_TEMP{instance=\\"$instance\\"})"}]}]}
        """;
    ManualClock clock = new ManualClock(3_600_000L);
    try (DashboardStore store = DashboardStore.open(temp.resolve("d"), List.of(), clock)) {
      store.save(
          DashboardImporter.importDocument(grafana.getBytes(StandardCharsets.UTF_8)).dashboard(),
          "",
          "test",
          "");
      DashboardsQueriesApi api =
          new DashboardsQueriesApi(store, new Engine(EngineOptions.DEFAULT), storage, clock, "15s");
      FakeExchange exchange = new FakeExchange("from", "0", "to", "3600").pathParam("uid", "rep");
      api.routes().get(0).handler().handle(exchange);

      assertThat(exchange.status).isEqualTo(200);
      assertThat(exchange.body)
          .contains(
              "\"panelRepeat\":{\"variable\":\"gpu\",\"value\":\"0\"},\"kind\":\"timeseries\",\"title\":\"GPU 0\"",
              "\"panelRepeat\":{\"variable\":\"gpu\",\"value\":\"1\"},\"kind\":\"timeseries\",\"title\":\"GPU 1\"",
              "\"expr\":\"DCGM_FI_DEV_GPU_TEMP{gpu=\\\"1\\\"}\"",
              "\"rowRepeat\":{\"variable\":\"instance\",\"value\":\"a:9400\"},\"kind\":\"stat\",\"title\":\"Hottest on a:9400\"",
              "\"rowRepeat\":{\"variable\":\"instance\",\"value\":\"b:9400\"},\"kind\":\"stat\",\"title\":\"Hottest on b:9400\"",
              "\"expr\":\"max(DCGM_FI_DEV_GPU_TEMP{instance=\\\"b:9400\\\"})\"");
      assertThat(exchange.body).doesNotContain("GPU $gpu", "(0|1)");
    }
  }

  @Test
  void theTrainingDashboardsVariablesResolveOnExportersNames() {
    long[] times = {1_000_000, 2_000_000};
    double[] values = {1, 2};
    MemoryStorage storage =
        new MemoryStorage()
            .add(
                Labels.of("__name__", "train_loss", "run", "llama", "instance", "node-0:8080"),
                times,
                values)
            .add(
                Labels.of("__name__", "llm_train_step", "run", "llama", "instance", "node-1:8080"),
                times,
                values)
            .add(
                Labels.of("__name__", "llm_train_step", "run", "bert", "instance", "node-2:8080"),
                times,
                values);
    for (String host : List.of("node-0", "node-1", "node-2")) {
      for (String gpu : List.of("0", "1")) {
        storage.add(
            Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "Hostname", host, "gpu", gpu),
            times,
            values);
      }
    }
    ManualClock clock = new ManualClock(3_600_000L);
    try (DashboardStore store = DashboardStore.open(temp.resolve("d"), List.of(), clock)) {
      DashboardsQueriesApi api =
          new DashboardsQueriesApi(store, new Engine(EngineOptions.DEFAULT), storage, clock, "15s");
      FakeExchange exchange =
          new FakeExchange("from", "0", "to", "3600", "var-run", "llama")
              .pathParam("uid", "flightdeck-llm-training");
      api.routes().get(0).handler().handle(exchange);

      assertThat(exchange.status).as(exchange.body).isEqualTo(200);
      // $node: the run's hosts, the port cut by the variable's regex; $gpu: their GPUs.
      assertThat(exchange.body)
          .contains(
              "{\"name\":\"run\",\"type\":\"query\",\"options\":[\"bert\",\"llama\"],\"selected\":[\"llama\"]}",
              "{\"name\":\"node\",\"type\":\"query\",\"options\":[\"node-0\",\"node-1\"],",
              "{\"name\":\"gpu\",\"type\":\"query\",\"options\":[\"0\",\"1\"],",
              "DCGM_FI_DEV_GPU_UTIL{Hostname=~\\\"(node-0|node-1)\\\", gpu=~\\\"(0|1)\\\"}");
    }
  }

  @Test
  void aVariableRegexThatBacktracksAnswers400NamingItAndTheServerGoesOn() {
    long[] times = {1_000_000};
    double[] values = {1};
    MemoryStorage storage =
        new MemoryStorage()
            .add(Labels.of("__name__", "probe", "name", "a".repeat(5_000)), times, values)
            .add(Labels.of("__name__", "probe", "name", "ok"), times, values);
    String grafana =
        """
        {"uid": "slow", "title": "Slow regex", "schemaVersion": 39,
         "templating": {"list": [
           {"name": "name", "type": "query", "query": "label_values(probe, name)",
            "regex": "/^(?=(.*a){25}b)/"}]},
         "panels": []}
        """;
    ManualClock clock = new ManualClock(3_600_000L);
    try (DashboardStore store = DashboardStore.open(temp.resolve("d"), List.of(), clock)) {
      store.save(
          DashboardImporter.importDocument(grafana.getBytes(StandardCharsets.UTF_8)).dashboard(),
          "",
          "test",
          "");
      DashboardsQueriesApi api =
          new DashboardsQueriesApi(store, new Engine(EngineOptions.DEFAULT), storage, clock, "15s");
      FakeExchange slow = new FakeExchange("from", "0", "to", "3600").pathParam("uid", "slow");
      api.routes().get(0).handler().handle(slow);
      assertThat(slow.status).isEqualTo(400);
      assertThat(slow.body).contains("variable \\\"name\\\"", "200 ms");

      FakeExchange next = new FakeExchange("from", "0", "to", "3600").pathParam("uid", "Oxed_c6Wz");
      api.routes().get(0).handler().handle(next);
      assertThat(next.status).isEqualTo(200);
    }
  }
}
