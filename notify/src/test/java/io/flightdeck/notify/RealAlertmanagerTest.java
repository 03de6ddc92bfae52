package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.config.AlertingConfig;
import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.ServiceDiscoveryConfigs;
import io.flightdeck.config.StaticConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.RelabelConfig;
import io.flightdeck.testkit.RealAlertmanager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Posts alerts to a real Alertmanager (Debian package {@code prometheus-alertmanager}) and reads
 * them back through its API and through the webhook it notifies.
 */
class RealAlertmanagerTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir static Path dir;
  private static RealAlertmanager alertmanager;
  private static WebhookServer hook;
  private static int port;

  @BeforeAll
  static void startAlertmanager() throws Exception {
    hook = new WebhookServer();
    alertmanager =
        RealAlertmanager.start(
            dir,
            """
            route:
              receiver: hook
              group_by: [alertname]
              group_wait: 0s
              group_interval: 1s
              repeat_interval: 1h
            receivers:
            - name: hook
              webhook_configs:
              - url: %s
                send_resolved: true
            """
                .formatted(hook.url("/hook")));
    port = alertmanager.port();
  }

  @AfterAll
  static void stop() throws InterruptedException {
    if (alertmanager != null) {
      alertmanager.close();
    }
    if (hook != null) {
      hook.close();
    }
  }

  @Test
  void firingThenResolvedAlertsArriveWithLabelsAnnotationsAndTimes() throws Exception {
    RelabelConfig addCluster =
        RelabelConfig.builder()
            .action(RelabelAction.REPLACE)
            .targetLabel("cluster")
            .replacement("lab-a")
            .build();
    RelabelConfig dropTest =
        RelabelConfig.builder()
            .action(RelabelAction.DROP)
            .sourceLabels("alertname")
            .regex("Dropped")
            .build();
    AlertmanagerConfig am = alertmanagerAt(List.of("127.0.0.1:" + port));
    var options =
        AlertmanagerNotifierOptions.defaults(
            new AlertingConfig(List.of(addCluster, dropTest), List.of(am)));
    long now = Instant.now().toEpochMilli();
    Labels labels =
        Labels.of("alertname", "TrainingLossNaN", "job", "ms-swift-lora", "severity", "critical");
    Labels annotations = Labels.of("summary", "loss is NaN at step 1200");
    NotifyAlert firing =
        new NotifyAlert(
            labels,
            annotations,
            now - 60_000,
            now + 600_000,
            "http://flightdeck:9090/graph?g0.expr=x");
    NotifyAlert dropped =
        new NotifyAlert(Labels.of("alertname", "Dropped"), Labels.EMPTY, now, now + 600_000, "");

    try (AlertmanagerNotifier notifier = new AlertmanagerNotifier(options)) {
      notifier.send(List.of(firing, dropped));
      assertThat(notifier.sendBatch(0)).isEqualTo(1);

      JsonNode alerts = get("/api/v2/alerts");
      assertThat(alerts).hasSize(1);
      JsonNode alert = alerts.get(0);
      assertThat(alert.get("labels").toString())
          .isEqualTo(
              "{\"alertname\":\"TrainingLossNaN\",\"cluster\":\"lab-a\",\"job\":\"ms-swift-lora\",\"severity\":\"critical\"}");
      assertThat(alert.get("annotations").toString())
          .isEqualTo("{\"summary\":\"loss is NaN at step 1200\"}");
      assertThat(instant(alert, "startsAt")).isEqualTo(Instant.ofEpochMilli(now - 60_000));
      assertThat(instant(alert, "endsAt")).isEqualTo(Instant.ofEpochMilli(now + 600_000));
      assertThat(alert.get("generatorURL").asText())
          .isEqualTo("http://flightdeck:9090/graph?g0.expr=x");
      assertThat(alert.get("status").get("state").asText()).isEqualTo("active");
      String fingerprint =
          firing.withLabels(labels.toBuilder().set("cluster", "lab-a").build()).fingerprint();
      assertThat(alert.get("fingerprint").asText())
          .as("Alertmanager's own fingerprint of the label set")
          .isEqualTo(fingerprint);

      JsonNode notified = JSON.readTree(hook.await(Duration.ofSeconds(20)).body());
      assertThat(notified.get("status").asText()).isEqualTo("firing");
      assertThat(notified.get("alerts").get(0).get("labels").get("cluster").asText())
          .isEqualTo("lab-a");

      long resolvedAt = Instant.now().toEpochMilli() - 1_000;
      notifier.send(List.of(firing.withEndsAt(resolvedAt)));
      assertThat(notifier.sendBatch(0)).isEqualTo(1);

      assertThat(get("/api/v2/alerts")).as("resolved alerts are not listed").isEmpty();
      JsonNode resolved = JSON.readTree(hook.await(Duration.ofSeconds(20)).body());
      assertThat(resolved.get("status").asText()).isEqualTo("resolved");
      JsonNode resolvedAlert = resolved.get("alerts").get(0);
      assertThat(instant(resolvedAlert, "startsAt")).isEqualTo(Instant.ofEpochMilli(now - 60_000));
      assertThat(instant(resolvedAlert, "endsAt")).isEqualTo(Instant.ofEpochMilli(resolvedAt));

      AlertmanagerStats stats = notifier.stats();
      String url = "http://127.0.0.1:" + port + "/api/v2/alerts";
      assertThat(stats.sent()).containsEntry(url, 2L);
      assertThat(stats.errors()).containsEntry(url, 0L);
      assertThat(stats.dropped()).isZero();
    }
  }

  @Test
  void silencesAreCreatedListedRefusedAndExpiredThroughTheAlertmanagerAlertsGoTo()
      throws Exception {
    AlertmanagerConfig am = alertmanagerAt(List.of("127.0.0.1:" + port));
    var options = AlertmanagerNotifierOptions.defaults(new AlertingConfig(List.of(), List.of(am)));
    try (AlertmanagerNotifier notifier = new AlertmanagerNotifier(options)) {
      AlertmanagerSilences silences = notifier.silences().orElseThrow();
      assertThat(silences.alertmanager()).isEqualTo("http://127.0.0.1:" + port + "/api/v2");
      Instant now = Instant.now();
      String created =
          silences.create(
              """
              {"matchers": [{"name": "alertname", "value": "GPUHot", "isRegex": false,
                             "isEqual": true},
                            {"name": "run", "value": "llama-.*", "isRegex": true}],
               "startsAt": "%s", "endsAt": "%s",
               "createdBy": "oncall", "comment": "fan replaced at 03:00"}
              """
                  .formatted(now, now.plus(Duration.ofHours(2))));
      String id = JSON.readTree(created).get("silenceID").asText();
      assertThat(id).isNotBlank();

      JsonNode listed = find(JSON.readTree(silences.list()), id);
      assertThat(listed.get("status").get("state").asText()).isEqualTo("active");
      assertThat(listed.get("comment").asText()).isEqualTo("fan replaced at 03:00");
      assertThat(listed.get("matchers").get(1).get("isRegex").asBoolean()).isTrue();

      assertThatThrownBy(
              () ->
                  silences.create(
                      """
                      {"matchers": [{"name": "alertname", "value": "X", "isRegex": false}],
                       "startsAt": "%s", "endsAt": "%s", "createdBy": "a", "comment": "b"}
                      """
                          .formatted(now, now.minus(Duration.ofHours(1)))))
          .isInstanceOf(AlertmanagerSilences.SilenceException.class)
          .hasMessageContaining("status 400")
          .satisfies(
              e -> assertThat(((AlertmanagerSilences.SilenceException) e).status()).isEqualTo(400));
      assertThatThrownBy(() -> silences.expire("../status")).hasMessageContaining("is not a UUID");

      silences.expire(id);
      assertThat(find(JSON.readTree(silences.list()), id).get("status").get("state").asText())
          .isEqualTo("expired");
    }
    AlertmanagerConfig nowhere = alertmanagerAt(List.of());
    try (AlertmanagerNotifier none =
        new AlertmanagerNotifier(
            AlertmanagerNotifierOptions.defaults(
                new AlertingConfig(List.of(), List.of(nowhere))))) {
      assertThat(none.silences()).as("no Alertmanager discovered, no silences").isEmpty();
    }
  }

  /** A config section whose static targets are these Alertmanagers, plain HTTP, API v2. */
  private static AlertmanagerConfig alertmanagerAt(List<String> targets) {
    return new AlertmanagerConfig(
        new ServiceDiscoveryConfigs(
            targets.isEmpty() ? List.of() : List.of(new StaticConfig(targets, Labels.EMPTY)),
            List.of(),
            List.of(),
            List.of()),
        HttpClientConfig.DEFAULT,
        "http",
        "",
        Duration.ofSeconds(5),
        "v2",
        List.of());
  }

  private static JsonNode find(JsonNode silences, String id) {
    for (JsonNode silence : silences) {
      if (silence.get("id").asText().equals(id)) {
        return silence;
      }
    }
    throw new AssertionError("silence " + id + " not listed in " + silences);
  }

  private static Instant instant(JsonNode alert, String field) {
    return Instant.parse(alert.get(field).asText());
  }

  private static JsonNode get(String path) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
