package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.AlertingConfig;
import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.config.BasicAuth;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.ServiceDiscoveryConfigs;
import io.flightdeck.config.StaticConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Queueing, batching, retries, targets and counters, against a local endpoint. */
class AlertmanagerNotifierTest {
  private WebhookServer am;

  @BeforeEach
  void start() throws Exception {
    am = new WebhookServer();
  }

  @AfterEach
  void stop() {
    am.close();
  }

  private AlertmanagerConfig section(
      String pathPrefix, HttpClientConfig http, RelabelConfig... rc) {
    return new AlertmanagerConfig(
        new ServiceDiscoveryConfigs(
            List.of(new StaticConfig(List.of("127.0.0.1:" + am.port()), Labels.EMPTY)),
            List.of(),
            List.of(),
            List.of()),
        http,
        "http",
        pathPrefix,
        Duration.ofSeconds(2),
        "v2",
        List.of(rc));
  }

  private AlertmanagerNotifier notifier(AlertmanagerConfig section, int capacity, int batch) {
    return new AlertmanagerNotifier(
        AlertmanagerNotifierOptions.defaults(new AlertingConfig(List.of(), List.of(section)))
            .withQueueCapacity(capacity)
            .withMaxBatchSize(batch)
            .withRetries(3, Duration.ZERO));
  }

  private static List<NotifyAlert> alerts(int n) {
    List<NotifyAlert> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new NotifyAlert(Labels.of("alertname", "A" + i), Labels.EMPTY, 1000, 0, ""));
    }
    return out;
  }

  @Test
  void fullQueueDropsTheOldestAndBatchesTheRest() throws Exception {
    try (AlertmanagerNotifier n = notifier(section("", HttpClientConfig.DEFAULT), 5, 2)) {
      n.send(alerts(7));
      assertThat(n.stats().queueLength()).isEqualTo(5);
      assertThat(n.stats().dropped()).isEqualTo(2);
      assertThat(n.sendBatch(0)).isEqualTo(2);
      assertThat(n.sendBatch(0)).isEqualTo(2);
      assertThat(n.sendBatch(0)).isEqualTo(1);
      assertThat(n.sendBatch(0)).isZero();
      List<String> bodies = am.drain().stream().map(WebhookServer.Request::body).toList();
      assertThat(bodies)
          .containsExactly(
              "[{\"labels\":{\"alertname\":\"A2\"},\"annotations\":{},\"startsAt\":\"1970-01-01T00:00:01Z\"},"
                  + "{\"labels\":{\"alertname\":\"A3\"},\"annotations\":{},\"startsAt\":\"1970-01-01T00:00:01Z\"}]",
              "[{\"labels\":{\"alertname\":\"A4\"},\"annotations\":{},\"startsAt\":\"1970-01-01T00:00:01Z\"},"
                  + "{\"labels\":{\"alertname\":\"A5\"},\"annotations\":{},\"startsAt\":\"1970-01-01T00:00:01Z\"}]",
              "[{\"labels\":{\"alertname\":\"A6\"},\"annotations\":{},\"startsAt\":\"1970-01-01T00:00:01Z\"}]");
      String url = "http://127.0.0.1:" + am.port() + "/api/v2/alerts";
      assertThat(n.stats().sent()).containsEntry(url, 5L);
    }
  }

  @Test
  void retriesServerErrorsButNotClientErrors() throws Exception {
    try (AlertmanagerNotifier n = notifier(section("", HttpClientConfig.DEFAULT), 100, 64)) {
      String url = "http://127.0.0.1:" + am.port() + "/api/v2/alerts";
      am.failNext(503, 502);
      n.send(alerts(2));
      n.sendBatch(0);
      assertThat(am.drain()).hasSize(3);
      assertThat(n.stats().sent()).containsEntry(url, 2L);
      assertThat(n.stats().errors()).containsEntry(url, 0L);

      am.failNext(400);
      n.send(alerts(3));
      n.sendBatch(0);
      assertThat(am.drain()).hasSize(1);
      assertThat(n.stats().errors()).containsEntry(url, 3L);
      assertThat(n.stats().dropped()).as("every Alertmanager failed").isEqualTo(3);

      am.failNext(503, 503, 503);
      n.send(alerts(1));
      n.sendBatch(0);
      assertThat(am.drain()).hasSize(3);
      assertThat(n.stats().errors()).containsEntry(url, 4L);
    }
  }

  @Test
  void pathPrefixTargetRelabellingAndBasicAuth() throws Exception {
    RelabelConfig rewritePath =
        RelabelConfig.builder()
            .action(RelabelAction.REPLACE)
            .sourceLabels("__alerts_path__")
            .regex("(.*)")
            .targetLabel("__alerts_path__")
            .replacement("/tenant-a$1")
            .build();
    HttpClientConfig auth =
        new HttpClientConfig(new BasicAuth("flightdeck", "pw", null), null, TlsConfig.DEFAULT);
    try (AlertmanagerNotifier n = notifier(section("/am/", auth, rewritePath), 100, 64)) {
      assertThat(n.alertmanagers())
          .containsExactly("http://127.0.0.1:" + am.port() + "/tenant-a/am/api/v2/alerts");
      n.send(alerts(1));
      n.sendBatch(0);
      WebhookServer.Request r = am.drain().getFirst();
      assertThat(r.path()).isEqualTo("/tenant-a/am/api/v2/alerts");
      assertThat(r.header("Authorization"))
          .isEqualTo("Basic " + Base64.getEncoder().encodeToString("flightdeck:pw".getBytes()));
    }
  }

  @Test
  void droppedTargetsAndAlertRelabelling() throws Exception {
    RelabelConfig dropAll =
        RelabelConfig.builder()
            .action(RelabelAction.DROP)
            .sourceLabels("__address__")
            .regex(".*")
            .build();
    try (AlertmanagerNotifier n =
        notifier(section("", HttpClientConfig.DEFAULT, dropAll), 10, 10)) {
      assertThat(n.alertmanagers()).isEmpty();
      n.send(alerts(3));
      assertThat(n.stats().queueLength()).as("nowhere to send: not queued").isZero();
    }
  }

  @Test
  void theSenderThreadDeliversQueuedAlerts() throws Exception {
    try (AlertmanagerNotifier n = notifier(section("", HttpClientConfig.DEFAULT), 10, 10)) {
      n.start();
      n.send(alerts(1));
      assertThat(am.await(Duration.ofSeconds(10)).body()).contains("\"A0\"");
    }
  }
}
