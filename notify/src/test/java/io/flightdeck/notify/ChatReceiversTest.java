package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The chat robots' payloads and signatures, received over HTTP. Expected signatures come from the
 * vendors' documented Python snippets, run outside Java.
 */
class ChatReceiversTest {
  private static final long T0 = 1_780_000_000_000L;

  @TempDir Path dir;
  private final ManualClock clock = new ManualClock(T0);
  private WebhookServer robot;

  @BeforeEach
  void start() throws Exception {
    robot = new WebhookServer();
  }

  @AfterEach
  void stop() {
    robot.close();
  }

  private WebhookServer.Request deliver(String receiverYaml, NotifyAlert... alerts) {
    NotificationsConfig config =
        TestConfigs.notifications(
            dir,
            """
            notifications:
              route:
                receiver: chat
                group_by: [alertname]
              receivers:
              - name: chat
            """
                + receiverYaml.replace("ROBOT", robot.url("/robot")));
    try (Notifier n =
        new Notifier(
            NotifierOptions.defaults(config, "http://flightdeck:9090", null).withClock(clock))) {
      n.send(List.of(alerts));
      clock.advance(Duration.ofSeconds(30));
      n.tick();
      List<WebhookServer.Request> requests = robot.drain();
      assertThat(requests).hasSize(1);
      return requests.getFirst();
    }
  }

  private static NotifyAlert nan(long startsAt) {
    return new NotifyAlert(
        Labels.of(
            "alertname",
            "TrainingLossNaN",
            "job",
            "ms-swift-lora",
            "rank",
            "0",
            "severity",
            "critical"),
        Labels.of("summary", "loss is NaN at step 1200", "description", "long text"),
        startsAt,
        startsAt + 3_600_000,
        "http://flightdeck:9090/graph?g0.expr=isnan(llm_train_loss)");
  }

  @Test
  void feishuCardIsSignedAsFeishuDocuments() {
    WebhookServer.Request r =
        deliver(
            """
                feishu_configs:
                - url: ROBOT
                  secret: feishu-secret
            """,
            nan(T0));
    assertThat(r.body())
        .isEqualTo(
            "{\"timestamp\":\"1780000030\",\"sign\":\"FNO8Dq/TRHzZH8zYwrNv4laPHSqGBkfskehW5DihyG4=\","
                + "\"msg_type\":\"interactive\",\"card\":{\"header\":{\"title\":{\"tag\":\"plain_text\","
                + "\"content\":\"[FIRING:1] TrainingLossNaN\"},\"template\":\"red\"},\"elements\":[{\"tag\":"
                + "\"markdown\",\"content\":\"**TrainingLossNaN** (critical, firing)\\nloss is NaN at step 1200\\n"
                + "job=ms-swift-lora, rank=0\\n[Open in Flightdeck](http://flightdeck:9090/graph?g0.expr=isnan(llm_train_loss))\\n\\n"
                + "[All alerts](http://flightdeck:9090/alerts)\"}]}}");
  }

  @Test
  void feishuWithoutSecretIsUnsigned() {
    WebhookServer.Request r = deliver("    feishu_configs: [{url: ROBOT}]\n", nan(T0));
    assertThat(r.body()).startsWith("{\"msg_type\":\"interactive\"");
  }

  @Test
  void dingTalkSignsTheUrlAndSendsMarkdown() {
    WebhookServer.Request r =
        deliver(
            """
                dingtalk_configs:
                - url: ROBOT?access_token=abc
                  secret: SECdingtalk
            """,
            nan(T0));
    assertThat(r.query())
        .isEqualTo(
            "access_token=abc&timestamp=1780000030000&sign=yAftNZl25Qh3sJ6XlMUjcY55h6Z9DhL7Dnvst%2BiONfI%3D");
    assertThat(r.body())
        .isEqualTo(
            "{\"msgtype\":\"markdown\",\"markdown\":{\"title\":\"[FIRING:1] TrainingLossNaN\",\"text\":"
                + "\"### [FIRING:1] TrainingLossNaN\\n\\n**TrainingLossNaN** (critical, firing)\\nloss is NaN at step 1200\\n"
                + "job=ms-swift-lora, rank=0\\n[Open in Flightdeck](http://flightdeck:9090/graph?g0.expr=isnan(llm_train_loss))\\n\\n"
                + "[All alerts](http://flightdeck:9090/alerts)\"}}");
  }

  @Test
  void weComRobotKeyBecomesTheUrl() {
    WebhookServer.Request r = deliver("    wecom_configs: [{url: \"ROBOT?key=k-123\"}]\n", nan(T0));
    assertThat(r.query()).isEqualTo("key=k-123");
    assertThat(r.body())
        .startsWith(
            "{\"msgtype\":\"markdown\",\"markdown\":{\"content\":\"**[FIRING:1] TrainingLossNaN**\\n**TrainingLossNaN** (critical, firing)");
  }

  @Test
  void slackAttachmentUsesMrkdwnLinks() {
    WebhookServer.Request r =
        deliver(
            "    slack_configs: [{api_url: ROBOT, channel: '#training', username: flightdeck}]\n",
            nan(T0));
    assertThat(r.body())
        .isEqualTo(
            "{\"channel\":\"#training\",\"username\":\"flightdeck\",\"attachments\":[{\"color\":\"danger\","
                + "\"title\":\"[FIRING:1] TrainingLossNaN\",\"title_link\":\"http://flightdeck:9090/alerts\","
                + "\"text\":\"*TrainingLossNaN* (critical, firing)\\nloss is NaN at step 1200\\njob=ms-swift-lora, rank=0\\n"
                + "<http://flightdeck:9090/graph?g0.expr=isnan(llm_train_loss)|Open in Flightdeck>\\n\\n"
                + "<http://flightdeck:9090/alerts|All alerts>\",\"fallback\":\"[FIRING:1] TrainingLossNaN\","
                + "\"mrkdwn_in\":[\"text\"]}]}");
  }

  @Test
  void aRobotErrorCodeIsAFailedDelivery() throws Exception {
    robot.respondWith(
        "{\"code\":19021,\"msg\":\"sign match fail or timestamp is not within one hour\"}");
    NotificationsConfig config =
        TestConfigs.notifications(
            dir,
            """
            notifications:
              route: {receiver: chat}
              receivers:
              - name: chat
                feishu_configs: [{url: ROBOT, secret: wrong}]
            """
                .replace("ROBOT", robot.url("/robot")));
    try (Notifier n = new Notifier(NotifierOptions.defaults(config, "", null).withClock(clock))) {
      n.send(List.of(nan(T0)));
      clock.advance(Duration.ofSeconds(30));
      n.tick();
      assertThat(n.stats().failed()).containsEntry("feishu", 1L);
      assertThat(n.stats().sent()).doesNotContainKey("feishu");
    }
  }

  @Test
  void signaturesMatchTheVendorsSnippets() {
    assertThat(Signatures.feishu(1780000030L, "feishu-secret"))
        .isEqualTo("FNO8Dq/TRHzZH8zYwrNv4laPHSqGBkfskehW5DihyG4=");
    assertThat(Signatures.dingTalk(1780000030000L, "SECdingtalk"))
        .isEqualTo("yAftNZl25Qh3sJ6XlMUjcY55h6Z9DhL7Dnvst+iONfI=");
  }

  @Test
  void messagesListFiringFirstAndCapTheAlerts() {
    List<NotifyAlert> alerts = new java.util.ArrayList<>();
    for (int i = 0; i < 12; i++) {
      alerts.add(
          new NotifyAlert(
              Labels.of("alertname", "GPUTemperatureHigh", "gpu", Integer.toString(i)),
              Labels.EMPTY,
              T0,
              i == 0 ? T0 + 1 : T0 + 3_600_000,
              ""));
    }
    Notification n =
        new Notification(
            "chat", "k", Labels.of("alertname", "GPUTemperatureHigh"), alerts, T0 + 10, "");
    ChatMessage message = new ChatMessage(n);
    assertThat(message.title()).isEqualTo("[FIRING:11] GPUTemperatureHigh");
    String md = message.markdown();
    assertThat(md).startsWith("**GPUTemperatureHigh** (firing)\ngpu=1\n");
    assertThat(md).endsWith("... and 2 more");
    assertThat(md).doesNotContain("resolved");
  }
}
