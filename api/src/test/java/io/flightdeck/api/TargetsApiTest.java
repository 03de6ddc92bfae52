package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetsApiTest {
  private static final Labels TRAINER = Labels.of("instance", "trainer-0:8080", "job", "train");

  private final TargetsSource source =
      new TargetsSource() {
        @Override
        public List<Active> activeTargets() {
          return List.of(
              new Active(
                  Labels.of("__address__", "trainer-0:8080", "job", "train"),
                  TRAINER,
                  "train",
                  "http://trainer-0:8080/metrics",
                  "http://trainer-0:8080/metrics",
                  "",
                  1_700_000_000_250L,
                  0.0125,
                  Health.UP,
                  "15s",
                  "10s"),
              new Active(
                  Labels.of("__address__", "gpu-node:9400"),
                  Labels.of("instance", "gpu-node:9400", "job", "dcgm"),
                  "dcgm",
                  "http://gpu-node:9400/metrics",
                  "http://gpu-node:9400/metrics",
                  "",
                  0,
                  0,
                  Health.UNKNOWN,
                  "1m",
                  "10s"));
        }

        @Override
        public List<Dropped> droppedTargets() {
          return List.of(new Dropped(Labels.of("__address__", "redis:6379"), "train"));
        }

        @Override
        public List<Metadata> targetMetadata() {
          return List.of(
              new Metadata(
                  TRAINER,
                  "llm_train_loss",
                  new MetricMetadata(MetricType.GAUGE, "Training loss.", "")),
              new Metadata(
                  Labels.of("instance", "gpu-node:9400", "job", "dcgm"),
                  "DCGM_FI_DEV_GPU_UTIL",
                  new MetricMetadata(MetricType.GAUGE, "GPU utilization (in %).", "")));
        }
      };

  private final TargetsApi api = new TargetsApi(source);

  private FakeExchange get(String path, String... params) {
    FakeExchange exchange = new FakeExchange(params);
    api.routes().stream()
        .filter(r -> r.method().equals("GET") && r.path().equals("/api/v1" + path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route " + path))
        .handler()
        .handle(exchange);
    return exchange;
  }

  @Test
  void listsActiveAndDroppedTargetsInPrometheusShape() {
    FakeExchange r = get("/targets");

    assertThat(r.status).isEqualTo(200);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"activeTargets\":["
                + "{\"discoveredLabels\":{\"__address__\":\"gpu-node:9400\"},"
                + "\"labels\":{\"instance\":\"gpu-node:9400\",\"job\":\"dcgm\"},"
                + "\"scrapePool\":\"dcgm\",\"scrapeUrl\":\"http://gpu-node:9400/metrics\","
                + "\"globalUrl\":\"http://gpu-node:9400/metrics\",\"lastError\":\"\","
                + "\"lastScrape\":\"0001-01-01T00:00:00Z\",\"lastScrapeDuration\":0,"
                + "\"health\":\"unknown\",\"scrapeInterval\":\"1m\",\"scrapeTimeout\":\"10s\"},"
                + "{\"discoveredLabels\":{\"__address__\":\"trainer-0:8080\",\"job\":\"train\"},"
                + "\"labels\":{\"instance\":\"trainer-0:8080\",\"job\":\"train\"},"
                + "\"scrapePool\":\"train\",\"scrapeUrl\":\"http://trainer-0:8080/metrics\","
                + "\"globalUrl\":\"http://trainer-0:8080/metrics\",\"lastError\":\"\","
                + "\"lastScrape\":\"2023-11-14T22:13:20.25Z\",\"lastScrapeDuration\":0.0125,"
                + "\"health\":\"up\",\"scrapeInterval\":\"15s\",\"scrapeTimeout\":\"10s\"}],"
                + "\"droppedTargets\":[{\"discoveredLabels\":{\"__address__\":\"redis:6379\"},"
                + "\"scrapePool\":\"train\"}],\"droppedTargetCounts\":{\"train\":1}}}");
  }

  @Test
  void filtersByStateAndPool() {
    assertThat(get("/targets", "state", "dropped").body)
        .contains("\"activeTargets\":[]")
        .contains("redis:6379");
    assertThat(get("/targets", "state", "active").body)
        .contains("\"droppedTargets\":[]")
        .contains("trainer-0:8080");
    assertThat(get("/targets", "scrapePool", "dcgm").body)
        .doesNotContain("trainer-0")
        .doesNotContain("redis");
  }

  @Test
  void targetMetadataFiltersByTargetAndMetric() {
    assertThat(get("/targets/metadata", "match_target", "{job=\"train\"}").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[{\"target\":{\"instance\":\"trainer-0:8080\","
                + "\"job\":\"train\"},\"metric\":\"llm_train_loss\",\"type\":\"gauge\","
                + "\"help\":\"Training loss.\",\"unit\":\"\"}]}");
    assertThat(get("/targets/metadata", "metric", "DCGM_FI_DEV_GPU_UTIL").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[{\"target\":{\"instance\":\"gpu-node:9400\","
                + "\"job\":\"dcgm\"},\"type\":\"gauge\",\"help\":\"GPU utilization (in %).\","
                + "\"unit\":\"\"}]}");
    assertThat(get("/targets/metadata", "limit", "1").body).contains("llm_train_loss");
    assertThat(get("/targets/metadata", "limit", "1").body).doesNotContain("DCGM");
  }

  @Test
  void badParametersAreBadData() {
    FakeExchange r = get("/targets/metadata", "match_target", "{job=");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.body).contains("invalid parameter \\\"match_target\\\"");
    assertThat(get("/targets/metadata", "limit", "x").body).contains("limit must be a number");
  }
}
