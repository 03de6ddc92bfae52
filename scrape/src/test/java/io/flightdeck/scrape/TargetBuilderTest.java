package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.model.Labels;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class TargetBuilderTest {
  private static TargetBuilder.Result build(String jobYaml, Labels target, Labels group) {
    return TargetBuilder.build(target, group, TestConfigs.job(jobYaml));
  }

  @Test
  void appliesPrometheusDefaultsAndDropsMetaLabels() {
    TargetBuilder.Result result =
        build(
            """
            - job_name: ms-swift-train
              scrape_interval: 15s
              scrape_timeout: 5s
              params:
                module: [gpu, extra]
            """,
            Labels.of("__address__", "trainer-0:8080"),
            Labels.of("__meta_kubernetes_pod_name", "trainer-0", "team", "llm"));

    assertThat(result.discovered())
        .isEqualTo(
            Labels.of(
                "__address__", "trainer-0:8080",
                "__meta_kubernetes_pod_name", "trainer-0",
                "team", "llm",
                "job", "ms-swift-train",
                "__scheme__", "http",
                "__metrics_path__", "/metrics",
                "__scrape_interval__", "15s",
                "__scrape_timeout__", "5s",
                "__param_module", "gpu"));
    ScrapeTarget target = result.target();
    assertThat(target.labels())
        .isEqualTo(Labels.of("instance", "trainer-0:8080", "job", "ms-swift-train", "team", "llm"));
    assertThat(target.all().has("__meta_kubernetes_pod_name")).isFalse();
    assertThat(target.url().toString())
        .isEqualTo("http://trainer-0:8080/metrics?module=gpu&module=extra");
    assertThat(target.interval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(target.timeout()).isEqualTo(Duration.ofSeconds(5));
  }

  @Test
  void relabellingCanSetSchemePathInstanceParamsAndInterval() {
    TargetBuilder.Result result =
        build(
            """
            - job_name: node
              relabel_configs:
                - source_labels: [__address__]
                  regex: '(.*):\\d+'
                  target_label: instance
                  replacement: '$1'
                - target_label: __scheme__
                  replacement: https
                - target_label: __metrics_path__
                  replacement: /probe
                - target_label: __param_target
                  replacement: gpu-node-7
                - target_label: __scrape_interval__
                  replacement: 30s
            """,
            Labels.of("__address__", "gpu-node-7:9100"),
            Labels.EMPTY);

    ScrapeTarget target = result.target();
    assertThat(target.labels().get("instance")).isEqualTo("gpu-node-7");
    assertThat(target.url().toString())
        .isEqualTo("https://gpu-node-7:9100/probe?target=gpu-node-7");
    assertThat(target.interval()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aTargetDroppedByRelabellingKeepsItsDiscoveredLabels() {
    TargetBuilder.Result result =
        build(
            """
            - job_name: pods
              relabel_configs:
                - source_labels: [app]
                  regex: ms-swift-train
                  action: keep
            """,
            Labels.of("__address__", "10.0.0.9:8080"),
            Labels.of("app", "redis"));

    assertThat(result.dropped()).isTrue();
    assertThat(result.discovered().get("app")).isEqualTo("redis");
    assertThat(result.discovered().get("job")).isEqualTo("pods");
  }

  @Test
  void rejectsBadAddressesAndTimeouts() {
    ScrapeConfig job = TestConfigs.job("- job_name: j\n");
    assertThat(TargetBuilder.build(Labels.of("__address__", "host:1/x"), Labels.EMPTY, job).error())
        .isEqualTo("\"host:1/x\" is not a valid hostname");
    assertThat(TargetBuilder.build(Labels.of("a", "b"), Labels.EMPTY, job).error())
        .isEqualTo("no address");
    assertThat(
            TargetBuilder.build(
                    Labels.of("__address__", "h:1", "__scrape_timeout__", "2m"), Labels.EMPTY, job)
                .error())
        .isEqualTo("scrape timeout cannot be greater than scrape interval (\"2m\" > \"1m\")");
  }

  @Test
  void targetLabelsWinOverGroupLabels() {
    TargetBuilder.Result result =
        build(
            "- job_name: j\n",
            Labels.of("__address__", "h:1", "rack", "target"),
            Labels.of("rack", "group"));
    assertThat(result.target().labels().get("rack")).isEqualTo("target");
  }

  private static final String TRAINING_PODS =
      """
      - job_name: ms-swift-train
        kubernetes_sd_configs:
          - role: pod
        relabel_configs:
          - source_labels: [__meta_kubernetes_pod_label_app]
            regex: ms-swift-train
            action: keep
          - source_labels: [__meta_kubernetes_pod_ip, __meta_kubernetes_pod_annotation_prometheus_io_port]
            regex: '(.+);(\\d+)'
            replacement: '$1:$2'
            target_label: __address__
          - source_labels: [__meta_kubernetes_pod_name]
            target_label: pod
      """;

  @Test
  void trainingPodsBecomeTargetsOnTheirAnnotatedPort() {
    Labels pod =
        Labels.of(
            "__meta_kubernetes_namespace", "default",
            "__meta_kubernetes_pod_name", "lora-0",
            "__meta_kubernetes_pod_ip", "10.1.2.3",
            "__meta_kubernetes_pod_label_app", "ms-swift-train",
            "__meta_kubernetes_pod_annotation_prometheus_io_port", "8080");

    ScrapeTarget target = build(TRAINING_PODS, Labels.of("__address__", "10.1.2.3"), pod).target();

    assertThat(target.url().toString()).isEqualTo("http://10.1.2.3:8080/metrics");
    assertThat(target.labels())
        .isEqualTo(
            Labels.of("instance", "10.1.2.3:8080", "job", "ms-swift-train", "pod", "lora-0"));
    assertThat(
            build(
                    TRAINING_PODS,
                    Labels.of("__address__", "10.1.2.4"),
                    Labels.of("__meta_kubernetes_pod_label_app", "redis"))
                .dropped())
        .isTrue();
  }
}
