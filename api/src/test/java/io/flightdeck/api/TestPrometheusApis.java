package io.flightdeck.api;

import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.storage.Queryable;
import java.time.Instant;
import java.util.Map;

/**
 * The Prometheus API over a test store at a fixed time {@code now}, with fixed status answers: the
 * flags, build, runtime and config that the API tests pin.
 */
final class TestPrometheusApis {
  private TestPrometheusApis() {}

  static PrometheusApi over(Engine engine, Queryable storage, long now) {
    return new PrometheusApi(
        engine,
        storage,
        () -> Map.of("loss", new MetricMetadata(MetricType.GAUGE, "Training loss.", "")),
        new HeadStatsSource() {
          @Override
          public Queryable head() {
            return storage;
          }

          @Override
          public long minTime() {
            return now - 60_000;
          }

          @Override
          public long maxTime() {
            return now;
          }

          @Override
          public long chunkCount() {
            return 3;
          }
        },
        new ServerStatus() {
          @Override
          public Build build() {
            return new Build("1.0", "r", "main", "u", "d", "java21");
          }

          @Override
          public Runtime runtime() {
            Instant t = Instant.ofEpochSecond(1);
            return new Runtime(t, "/", "h", t, true, t, 0, 1, 2, 3, "", "", "15d");
          }

          @Override
          public Map<String, String> flags() {
            return Map.of("web.listen-address", "127.0.0.1:9595", "query.timeout", "2m");
          }

          @Override
          public String configYaml() {
            return "global: {}\n";
          }
        },
        () -> now);
  }
}
