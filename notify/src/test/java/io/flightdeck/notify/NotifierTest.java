package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Grouping, timing, resolution, retries and restarts, with a manual clock and a real endpoint. */
class NotifierTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final long T0 = 1_780_000_000_000L;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(T0);
  private WebhookServer hook;

  @BeforeEach
  void startHook() throws Exception {
    hook = new WebhookServer();
  }

  @AfterEach
  void stopHook() {
    hook.close();
  }

  private Notifier notifier(String routeAndReceivers, Path dataDir) {
    NotificationsConfig config =
        TestConfigs.notifications(
            dir, "notifications:\n" + routeAndReceivers.replace("HOOK", hook.url("/hook")));
    return new Notifier(
        NotifierOptions.defaults(config, "http://flightdeck:9090/", dataDir).withClock(clock));
  }

  private static final String SIMPLE =
      """
        route:
          receiver: team
          group_by: [alertname]
        receivers:
        - name: team
          webhook_configs:
          - url: HOOK
      """;

  private NotifyAlert firing(String name, String gpu, long startsAt) {
    return new NotifyAlert(
        Labels.of("alertname", name, "gpu", gpu, "instance", "node1:9400", "severity", "critical"),
        Labels.of("summary", "GPU " + gpu + " failed"),
        startsAt,
        clock.millis() + Duration.ofHours(1).toMillis(),
        "http://flightdeck:9090/graph?g0.expr=DCGM_FI_DEV_XID_ERRORS");
  }

  private List<JsonNode> received() throws Exception {
    List<JsonNode> out = new java.util.ArrayList<>();
    for (WebhookServer.Request r : hook.drain()) {
      out.add(JSON.readTree(r.body()));
    }
    return out;
  }

  private void advance(Duration d) {
    clock.advance(d);
  }

  @Test
  void aHangingReceiverDoesNotHoldBackTheOthers() throws Exception {
    // The hanging receiver comes first and answers only once the second one has its notification
    // (or after 8 s): one after the other, the second would wait for the first.
    java.util.concurrent.CountDownLatch secondReceived = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.atomic.AtomicBoolean othersWentFirst =
        new java.util.concurrent.atomic.AtomicBoolean();
    com.sun.net.httpserver.HttpServer hanging =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    hanging.createContext(
        "/slow",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          try {
            othersWentFirst.set(secondReceived.await(8, java.util.concurrent.TimeUnit.SECONDS));
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    hanging.start();
    hook.onRequest(secondReceived::countDown);
    String config =
        """
          route:
            receiver: team
            group_by: [alertname]
            group_wait: 0s
          receivers:
          - name: team
            webhook_configs:
            - url: SLOW
            - url: HOOK
        """
            .replace("SLOW", "http://127.0.0.1:" + hanging.getAddress().getPort() + "/slow");
    try (Notifier n = notifier(config, null)) {
      n.send(List.of(firing("GPUXIDCriticalError", "1", T0)));
      n.tick();
      assertThat(othersWentFirst).as("the second receiver was notified meanwhile").isTrue();
      assertThat(hook.drain()).hasSize(1);
      assertThat(n.stats().sent()).containsEntry("webhook", 2L);
    } finally {
      hanging.stop(0);
    }
  }

  @Test
  void firstNotificationAfterGroupWaitIsAlertmanagersWebhookJson() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      n.send(
          List.of(firing("GPUXIDCriticalError", "3", T0), firing("GPUXIDCriticalError", "1", T0)));
      n.tick();
      advance(Duration.ofSeconds(29));
      n.tick();
      assertThat(hook.drain()).isEmpty();

      advance(Duration.ofSeconds(1));
      n.tick();
      List<WebhookServer.Request> requests = hook.drain();
      assertThat(requests).hasSize(1);
      assertThat(requests.getFirst().header("Content-Type")).isEqualTo("application/json");
      assertThat(requests.getFirst().body())
          .isEqualTo(
              "{\"receiver\":\"team\",\"status\":\"firing\",\"alerts\":["
                  + alertJson("1")
                  + ","
                  + alertJson("3")
                  + "],\"groupLabels\":{\"alertname\":\"GPUXIDCriticalError\"},"
                  + "\"commonLabels\":{\"alertname\":\"GPUXIDCriticalError\",\"instance\":\"node1:9400\",\"severity\":\"critical\"},"
                  + "\"commonAnnotations\":{},\"externalURL\":\"http://flightdeck:9090\",\"version\":\"4\","
                  + "\"groupKey\":\"{}:{alertname=\\\"GPUXIDCriticalError\\\"}\",\"truncatedAlerts\":0}");
    }
  }

  private String alertJson(String gpu) {
    String fp =
        new NotifyAlert(
                Labels.of(
                    "alertname",
                    "GPUXIDCriticalError",
                    "gpu",
                    gpu,
                    "instance",
                    "node1:9400",
                    "severity",
                    "critical"),
                Labels.EMPTY,
                0,
                0,
                "")
            .fingerprint();
    return "{\"status\":\"firing\",\"labels\":{\"alertname\":\"GPUXIDCriticalError\",\"gpu\":\""
        + gpu
        + "\",\"instance\":\"node1:9400\",\"severity\":\"critical\"},"
        + "\"annotations\":{\"summary\":\"GPU "
        + gpu
        + " failed\"},\"startsAt\":\"2026-05-28T20:26:40Z\",\"endsAt\":\"0001-01-01T00:00:00Z\","
        + "\"generatorURL\":\"http://flightdeck:9090/graph?g0.expr=DCGM_FI_DEV_XID_ERRORS\","
        + "\"fingerprint\":\""
        + fp
        + "\"}";
  }

  @Test
  void changesWaitForGroupIntervalAndUnchangedGroupsRepeat() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      n.send(List.of(firing("GPUXIDCriticalError", "1", T0)));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);

      advance(Duration.ofMinutes(1));
      n.send(
          List.of(
              firing("GPUXIDCriticalError", "1", T0),
              firing("GPUXIDCriticalError", "2", clock.millis())));
      n.tick();
      assertThat(received()).as("a change waits for group_interval").isEmpty();

      advance(Duration.ofMinutes(4));
      n.tick();
      List<JsonNode> update = received();
      assertThat(update).hasSize(1);
      assertThat(update.getFirst().get("alerts")).hasSize(2);

      // Unchanged and firing: nothing until repeat_interval (4h) since the last notification.
      for (int i = 0; i < 47; i++) {
        advance(Duration.ofMinutes(5));
        n.send(
            List.of(
                firing("GPUXIDCriticalError", "1", T0), firing("GPUXIDCriticalError", "2", T0)));
        n.tick();
      }
      assertThat(received()).isEmpty();
      advance(Duration.ofMinutes(5));
      n.send(
          List.of(firing("GPUXIDCriticalError", "1", T0), firing("GPUXIDCriticalError", "2", T0)));
      n.tick();
      assertThat(received()).hasSize(1);
    }
  }

  @Test
  void resolvedNotificationThenTheGroupIsForgotten() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      NotifyAlert alert = firing("TrainingLossNaN", "0", T0);
      n.send(List.of(alert));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);

      advance(Duration.ofMinutes(2));
      long resolvedAt = clock.millis();
      n.send(List.of(alert.withEndsAt(resolvedAt)));
      n.tick();
      assertThat(received()).isEmpty();
      advance(Duration.ofMinutes(3));
      n.tick();
      List<JsonNode> resolved = received();
      assertThat(resolved).hasSize(1);
      assertThat(resolved.getFirst().get("status").asText()).isEqualTo("resolved");
      JsonNode a = resolved.getFirst().get("alerts").get(0);
      assertThat(a.get("status").asText()).isEqualTo("resolved");
      assertThat(a.get("endsAt").asText()).isEqualTo(Rfc3339.format(resolvedAt));
      assertThat(n.stats().groups()).isZero();

      advance(Duration.ofMinutes(5));
      n.send(List.of(alert.withEndsAt(resolvedAt)));
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(received()).as("a resolved alert sent again is not notified again").isEmpty();
    }
  }

  @Test
  void alertsWithoutEndTimeResolveAfterResolveTimeout() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      n.send(List.of(new NotifyAlert(Labels.of("alertname", "A"), Labels.EMPTY, T0, 0, "")));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(received().getFirst().get("status").asText()).isEqualTo("resolved");
    }
  }

  @Test
  void sendResolvedFalseSkipsTheResolvedNotification() throws Exception {
    String config = SIMPLE.replace("url: HOOK", "url: HOOK\n      send_resolved: false");
    try (Notifier n = notifier(config, null)) {
      NotifyAlert alert = firing("A", "0", T0);
      n.send(List.of(alert));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);
      n.send(List.of(alert.withEndsAt(clock.millis())));
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(received()).isEmpty();

      // It fires again later: a new notification, since the log forgot the old firing set.
      advance(Duration.ofMinutes(5));
      n.send(List.of(firing("A", "0", clock.millis())));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);
    }
  }

  @Test
  void everyDeliveryIsRecordedInTheHistoryWithItsResultNewestFirst() throws Exception {
    DeliveryHistory history = new DeliveryHistory(2);
    NotificationsConfig config =
        TestConfigs.notifications(
            dir, "notifications:\n" + SIMPLE.replace("HOOK", hook.url("/hook")));
    try (Notifier n =
        new Notifier(
            NotifierOptions.defaults(config, "", null).withClock(clock).withHistory(history))) {
      hook.failNext(503);
      n.send(List.of(firing("GPUXIDCriticalError", "1", T0)));
      advance(Duration.ofSeconds(30));
      n.tick(); // fails
      advance(Duration.ofSeconds(1));
      n.tick(); // the retry arrives
      assertThat(hook.drain()).hasSize(2);

      List<DeliveryHistory.Delivery> deliveries = history.newestFirst();
      assertThat(deliveries).hasSize(2);
      DeliveryHistory.Delivery arrived = deliveries.get(0);
      assertThat(arrived.ok()).isTrue();
      assertThat(arrived.receiver()).isEqualTo("team");
      assertThat(arrived.integration()).isEqualTo("webhook");
      assertThat(arrived.status()).isEqualTo("firing");
      assertThat(arrived.timeMs()).isEqualTo(T0 + 31_000);
      assertThat(arrived.alerts())
          .singleElement()
          .satisfies(
              a -> {
                assertThat(a.labels().get("alertname")).isEqualTo("GPUXIDCriticalError");
                assertThat(a.status()).isEqualTo("firing");
              });
      assertThat(deliveries.get(1).ok()).isFalse();
      assertThat(deliveries.get(1).error()).contains("503");

      n.send(List.of(firing("GPUXIDCriticalError", "1", T0).withEndsAt(clock.millis())));
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(history.newestFirst())
          .as("bounded: the oldest goes")
          .hasSize(2)
          .first()
          .satisfies(d -> assertThat(d.status()).isEqualTo("resolved"));
      assertThat(history.newestFirst().get(1).ok()).isTrue();
    }
  }

  @Test
  void retriesWithBackoffAndSendsOnlyTheCurrentStateOnceTheReceiverIsBack() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      hook.failNext(503, 503, 503);
      n.send(List.of(firing("GPUXIDCriticalError", "1", T0)));
      advance(Duration.ofSeconds(30));
      n.tick(); // fails, retry in 1s
      advance(Duration.ofMillis(999));
      n.tick();
      assertThat(hook.drain()).hasSize(1);
      advance(Duration.ofMillis(1));
      n.tick(); // fails, retry in 2s
      n.send(List.of(firing("GPUXIDCriticalError", "2", clock.millis())));
      advance(Duration.ofSeconds(2));
      n.tick(); // fails, retry in 4s
      assertThat(hook.drain()).hasSize(2);
      advance(Duration.ofSeconds(3));
      n.tick();
      assertThat(hook.drain()).isEmpty();
      advance(Duration.ofSeconds(1));
      n.tick(); // the receiver is back
      List<JsonNode> delivered = received();
      assertThat(delivered).hasSize(1);
      assertThat(delivered.getFirst().get("alerts")).hasSize(2);

      for (int i = 0; i < 12; i++) {
        advance(Duration.ofMinutes(1));
        n.tick();
      }
      assertThat(received()).as("no duplicates after recovery").isEmpty();
      assertThat(n.stats().failed()).containsEntry("webhook", 3L);
      assertThat(n.stats().sent()).containsEntry("webhook", 1L);
    }
  }

  @Test
  void clientErrorsAreNotRetriedBeforeTheNextGroupInterval() throws Exception {
    try (Notifier n = notifier(SIMPLE, null)) {
      hook.failNext(400);
      n.send(List.of(firing("A", "1", T0)));
      advance(Duration.ofSeconds(30));
      n.tick();
      for (int i = 0; i < 29; i++) {
        advance(Duration.ofSeconds(10));
        n.tick();
      }
      assertThat(hook.drain()).hasSize(1);
      advance(Duration.ofSeconds(10));
      n.tick();
      assertThat(received()).hasSize(1);
    }
  }

  @Test
  void notificationLogSurvivesARestart() throws Exception {
    Path data = dir.resolve("data");
    NotifyAlert alert = firing("GPUXIDCriticalError", "1", T0);
    try (Notifier n = notifier(SIMPLE, data)) {
      n.send(List.of(alert));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(received()).hasSize(1);
    }
    advance(Duration.ofMinutes(3));
    try (Notifier n = notifier(SIMPLE, data)) {
      n.send(List.of(alert));
      n.tick();
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(received()).as("already notified before the restart").isEmpty();

      n.send(List.of(alert.withEndsAt(clock.millis())));
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(received().getFirst().get("status").asText()).isEqualTo("resolved");
    }
    try (Notifier n = notifier(SIMPLE, null)) {
      n.send(List.of(alert));
      n.tick();
      assertThat(received()).as("without the log the alert is notified again").hasSize(1);
    }
  }

  @Test
  void routesMatchersContinueAndInheritance() throws Exception {
    String config =
        """
          route:
            receiver: default
            group_by: [alertname, job]
            group_wait: 10s
            routes:
            - matchers: ['severity="critical"', 'job=~"ms-swift.*"']
              receiver: oncall
              continue: true
            - match: {team: infra}
              receiver: infra
              group_wait: 1m
            - match_re: {severity: "warn.*"}
              receiver: infra
          receivers:
          - name: default
            webhook_configs: [{url: "HOOK?to=default"}]
          - name: oncall
            webhook_configs: [{url: "HOOK?to=oncall"}]
          - name: infra
            webhook_configs: [{url: "HOOK?to=infra"}]
        """;
    try (Notifier n = notifier(config, null)) {
      n.send(
          List.of(
              alert("LossNaN", "job", "ms-swift-lora", "severity", "critical", "team", "infra"),
              alert("DiskFull", "job", "node", "severity", "warning"),
              alert("Other", "job", "node", "severity", "info")));
      advance(Duration.ofSeconds(10));
      n.tick();
      assertThat(hook.drain().stream().map(WebhookServer.Request::query).sorted())
          .containsExactly("to=default", "to=infra", "to=oncall");
      advance(Duration.ofSeconds(50));
      n.tick();
      List<WebhookServer.Request> late = hook.drain();
      assertThat(late).hasSize(1);
      assertThat(late.getFirst().query()).isEqualTo("to=infra");
      assertThat(JSON.readTree(late.getFirst().body()).get("groupKey").asText())
          .isEqualTo("{}/{team=\"infra\"}:{alertname=\"LossNaN\", job=\"ms-swift-lora\"}");
    }
  }

  private NotifyAlert alert(String name, String... labels) {
    Labels.Builder b = Labels.builder().set("alertname", name);
    for (int i = 0; i < labels.length; i += 2) {
      b.set(labels[i], labels[i + 1]);
    }
    return new NotifyAlert(b.build(), Labels.EMPTY, clock.millis(), clock.millis() + 600_000, "");
  }

  @Test
  void inhibitRulesMuteTargetsWhileASourceFires() throws Exception {
    String config =
        SIMPLE
            + """
              inhibit_rules:
              - source_matchers: [severity="critical"]
                target_matchers: [severity="warning"]
                equal: [instance]
            """;
    try (Notifier n = notifier(config.replace("[alertname]", "['...']"), null)) {
      NotifyAlert source = alert("GPUFellOffBus", "instance", "node1", "severity", "critical");
      n.send(
          List.of(
              source,
              alert("GPUTemperatureHigh", "instance", "node1", "severity", "warning"),
              alert("GPUTemperatureHigh", "instance", "node2", "severity", "warning")));
      advance(Duration.ofSeconds(30));
      n.tick();
      List<String> names =
          received().stream()
              .map(j -> j.get("alerts").get(0).get("labels"))
              .map(l -> l.get("alertname").asText() + "@" + l.get("instance").asText())
              .sorted()
              .toList();
      assertThat(names).containsExactly("GPUFellOffBus@node1", "GPUTemperatureHigh@node2");

      n.send(List.of(source.withEndsAt(clock.millis())));
      advance(Duration.ofMinutes(5));
      n.tick();
      List<String> after =
          received().stream()
              .map(
                  j ->
                      j.get("status").asText()
                          + ":"
                          + j.get("alerts").get(0).get("labels").get("instance").asText())
              .sorted()
              .toList();
      assertThat(after).containsExactly("firing:node1", "resolved:node1");
    }
  }

  @Test
  void aReceiverWithoutIntegrationsStillForgetsResolvedGroups() {
    String config =
        """
          route:
            receiver: blackhole
          receivers:
          - name: blackhole
        """;
    try (Notifier n = notifier(config, null)) {
      NotifyAlert alert = firing("A", "0", T0);
      n.send(List.of(alert));
      advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(n.stats().groups()).isEqualTo(1);
      n.send(List.of(alert.withEndsAt(clock.millis())));
      advance(Duration.ofMinutes(5));
      n.tick();
      assertThat(n.stats().groups()).isZero();
    }
  }

  @Test
  void theDispatcherThreadDeliversOnItsOwn() throws Exception {
    NotificationsConfig config =
        TestConfigs.notifications(
            dir,
            "notifications:\n"
                + SIMPLE
                    .replace("HOOK", hook.url("/hook"))
                    .replace("[alertname]", "[alertname]\n    group_wait: 0s"));
    NotifierOptions options = NotifierOptions.defaults(config, "", null);
    try (Notifier n = new Notifier(options)) {
      n.start();
      long now = System.currentTimeMillis();
      n.send(
          List.of(
              new NotifyAlert(
                  Labels.of("alertname", "Live"), Labels.EMPTY, now, now + 60_000, "")));
      assertThat(hook.await(Duration.ofSeconds(10)).body()).contains("\"Live\"");
    }
  }
}
