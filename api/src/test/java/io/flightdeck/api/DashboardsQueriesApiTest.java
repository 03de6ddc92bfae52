package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.dashboards.DashboardStore;
import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.testkit.ManualClock;
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
}
