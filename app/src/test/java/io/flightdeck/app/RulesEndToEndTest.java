package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Rules in a running server: the config's {@code rule_files} are evaluated at its evaluation
 * interval, alerts show in {@code /api/v1/alerts} and as {@code ALERTS} series, recording rules
 * write their series, and a reload with a broken rule file keeps the running rules.
 */
class RulesEndToEndTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration WAIT = Duration.ofSeconds(30);

  @TempDir Path dir;

  @Test
  void rulesAreEvaluatedServedAndSafelyReloaded() throws Exception {
    Path rules = dir.resolve("training.yml");
    Files.writeString(
        rules,
        """
        groups:
          - name: training
            interval: 1s
            rules:
              - record: job:always:one
                expr: vector(1)
              - alert: TrainingLossIsNaN
                expr: vector(0) / 0 != 1
                labels:
                  severity: critical
                annotations:
                  summary: "loss is {{ $value }}"
        """);
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(
        config,
        """
        global:
          evaluation_interval: 1s
        rule_files:
          - training.yml
        scrape_configs: []
        alerting:
          alertmanagers:
            - static_configs:
                - targets: ['127.0.0.1:9', '10.1.2.3:9093']
              relabel_configs:
                - source_labels: [__address__]
                  regex: '10\\..*'
                  action: drop
        """);
    try (FlightdeckServerProcess server =
        FlightdeckServerProcess.start(
            dir.resolve("data"),
            Files.createFile(dir.resolve("server.log")),
            "--config.file=" + config)) {
      server.awaitReady();
      // The configuration in force, with the defaults the file left out.
      assertThat(get(server, "/api/v1/status/config").path("data").path("yaml").asText())
          .contains("evaluation_interval: 1s")
          .contains("rule_files:\n- " + dir.resolve("training.yml"))
          .contains(
              "  - follow_redirects: true\n    scheme: http\n    timeout: 10s\n    api_version: v2")
          .contains("    - 10.1.2.3:9093");
      JsonNode alertmanagers = get(server, "/api/v1/alertmanagers").path("data");
      assertThat(alertmanagers.toString())
          .isEqualTo(
              "{\"activeAlertmanagers\":[{\"url\":\"http://127.0.0.1:9/api/v2/alerts\"}],"
                  + "\"droppedAlertmanagers\":[{\"url\":\"http://10.1.2.3:9093/api/v2/alerts\"}]}");
      JsonNode alert = awaitFirst(server, "/api/v1/alerts", "alerts");
      assertThat(alert.path("labels").path("alertname").asText()).isEqualTo("TrainingLossIsNaN");
      assertThat(alert.path("labels").path("severity").asText()).isEqualTo("critical");
      assertThat(alert.path("state").asText()).isEqualTo("firing");
      assertThat(alert.path("annotations").path("summary").asText()).isEqualTo("loss is NaN");

      JsonNode groups = get(server, "/api/v1/rules?type=record").path("data").path("groups");
      assertThat(groups.get(0).path("rules").get(0).path("name").asText())
          .isEqualTo("job:always:one");
      assertThat(groups.get(0).path("rules")).hasSize(1);

      awaitFirst(server, "/api/v1/query?query=" + encode("job:always:one"), "result");
      JsonNode firing =
          awaitFirst(
              server, "/api/v1/query?query=" + encode("ALERTS{alertstate=\"firing\"}"), "result");
      assertThat(firing.path("metric").path("alertname").asText()).isEqualTo("TrainingLossIsNaN");

      Files.writeString(rules, "groups:\n  - name: training\n    rules:\n      - record: x\n");
      String reload = TestHttp.post(server.uri("/-/reload"), new byte[0]).body();
      assertThat(reload).contains("failed to reload config").contains("training.yml");
      assertThat(get(server, "/api/v1/rules").path("data").path("groups").get(0).path("rules"))
          .hasSize(2);

      assertThat(get(server, "/api/v1/rules?type=bogus").path("errorType").asText())
          .isEqualTo("bad_data");

      // A good reload takes the new evaluation interval and external labels with the rules.
      Files.writeString(
          rules,
          """
          groups:
            - name: training
              rules:
                - alert: Labelled
                  expr: vector(1)
                  labels:
                    cluster: '{{ $externalLabels.cluster }}'
                - record: job:broken
                  expr: label_replace(vector(1), "x", "$1", "y", "(")
          """);
      Files.writeString(
          config,
          Files.readString(config)
              .replace(
                  "evaluation_interval: 1s",
                  "evaluation_interval: 2s\n  external_labels:\n    cluster: east"));
      assertThat(TestHttp.post(server.uri("/-/reload"), new byte[0]).statusCode()).isEqualTo(200);
      JsonNode group = get(server, "/api/v1/rules").path("data").path("groups").get(0);
      assertThat(group.path("interval").asDouble()).isEqualTo(2.0);
      JsonNode labelled = awaitFirst(server, "/api/v1/alerts", "alerts");
      assertThat(labelled.path("labels").path("cluster").asText()).isEqualTo("east");

      // The failing rule shows in the API and in the self-metrics; its group goes on.
      String groupLabel = "rule_group=\"" + rules + ";training\"";
      String metrics =
          awaitMetric(server, "prometheus_rule_evaluation_failures_total{" + groupLabel);
      assertThat(metricValue(metrics, "prometheus_rule_evaluation_failures_total{" + groupLabel))
          .isPositive();
      assertThat(metricValue(metrics, "flightdeck_rule_group_unhealthy_rules{" + groupLabel))
          .isEqualTo(1.0);
      assertThat(metricValue(metrics, "prometheus_rule_group_interval_seconds{" + groupLabel))
          .isEqualTo(2.0);
      JsonNode broken =
          get(server, "/api/v1/rules?type=record")
              .path("data")
              .path("groups")
              .get(0)
              .path("rules")
              .get(0);
      assertThat(broken.path("health").asText()).isEqualTo("err");
      assertThat(broken.path("lastError").asText()).contains("invalid regular expression");
    }
  }

  /** Polls /metrics until a line starts with {@code prefix}; returns the whole text. */
  private static String awaitMetric(FlightdeckServerProcess server, String prefix)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    String text = "";
    while (System.nanoTime() < deadline) {
      text = TestHttp.get(server.uri("/metrics")).body();
      if (text.lines().anyMatch(l -> l.startsWith(prefix))) {
        return text;
      }
      Thread.sleep(200);
    }
    throw new AssertionError("no " + prefix + " in /metrics within " + WAIT + ":\n" + text);
  }

  private static double metricValue(String text, String prefix) {
    String line = text.lines().filter(l -> l.startsWith(prefix)).findFirst().orElseThrow();
    return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
  }

  private static String encode(String query) {
    return URLEncoder.encode(query, StandardCharsets.UTF_8);
  }

  private static JsonNode get(FlightdeckServerProcess server, String path) throws Exception {
    return JSON.readTree(TestHttp.get(server.uri(path)).body());
  }

  /** Polls until {@code data.<field>} holds an element; returns the first. */
  private static JsonNode awaitFirst(FlightdeckServerProcess server, String path, String field)
      throws Exception {
    long deadline = System.nanoTime() + WAIT.toNanos();
    JsonNode last = null;
    while (System.nanoTime() < deadline) {
      last = get(server, path);
      JsonNode items = last.path("data").path(field);
      if (items.size() > 0) {
        return items.get(0);
      }
      Thread.sleep(100);
    }
    throw new AssertionError(path + " stayed empty for " + WAIT + ": " + last);
  }
}
