package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Good fixtures parse; each bad one fails with the text pinned on its first line. */
class NotificationsConfigTest {
  private static final String ERROR_PREFIX = "# error: ";

  static Stream<Path> good() throws Exception {
    return fixtures("good");
  }

  static Stream<Path> bad() throws Exception {
    return fixtures("bad");
  }

  private static Stream<Path> fixtures(String kind) throws IOException, URISyntaxException {
    Path dir = Path.of(NotificationsConfigTest.class.getResource("/notifications/" + kind).toURI());
    List<Path> files;
    try (Stream<Path> s = Files.list(dir)) {
      files = s.sorted().toList();
    }
    assertThat(files).isNotEmpty();
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("good")
  void goodFixturesParseWithEveryReceiverTheFileNames(Path file) throws IOException {
    NotificationsConfig config = TestConfigs.load(file);
    // The receiver names as a plain YAML reading sees them, in file order.
    com.fasterxml.jackson.databind.JsonNode section =
        new com.fasterxml.jackson.databind.ObjectMapper(
                new com.fasterxml.jackson.dataformat.yaml.YAMLFactory())
            .readTree(file.toFile())
            .path("notifications");
    List<String> named = section.path("receivers").findValuesAsText("name");
    assertThat(config.enabled()).isEqualTo(!section.isMissingNode());
    assertThat(config.receiverNames()).containsExactlyElementsOf(named);
    if (!section.isMissingNode()) {
      assertThat(config.route().receiver())
          .isEqualTo(section.path("route").path("receiver").asText());
    }
  }

  @ParameterizedTest
  @MethodSource("bad")
  void badFixturesFailWithThePinnedMessage(Path file) throws IOException {
    String first = Files.readAllLines(file).getFirst();
    assertThat(first).startsWith(ERROR_PREFIX);
    assertThatThrownBy(() -> TestConfigs.load(file))
        .isInstanceOf(NotificationsConfigException.class)
        .hasMessage(first.substring(ERROR_PREFIX.length()));
  }

  @Test
  void fullFixtureIsReadWithInheritanceAndDefaults() throws Exception {
    NotificationsConfig config =
        TestConfigs.load(Path.of(getClass().getResource("/notifications/good/full.yml").toURI()));
    assertThat(config.enabled()).isTrue();
    assertThat(config.receiverNames()).containsExactly("default", "oncall", "training");
    assertThat(config.resolveTimeout()).isEqualTo(Duration.ofMinutes(10));
    Route root = config.route();
    Route oncall = root.routes().get(0);
    assertThat(oncall.key())
        .isEqualTo("{}/{severity=\"critical\",alertname=~\"GPU.*|Training.*\"}");
    assertThat(oncall.groupBy()).containsExactly("alertname", "job");
    assertThat(oncall.groupWait()).isEqualTo(Duration.ofSeconds(10));
    assertThat(oncall.continueMatching()).isTrue();
    Route training = root.routes().get(1);
    assertThat(training.groupByAll()).isTrue();
    assertThat(training.routes().getFirst().repeatInterval()).isEqualTo(Duration.ofHours(1));
    assertThat(training.routes().getFirst().groupWait()).isEqualTo(Duration.ofSeconds(30));

    Labels gpuCritical =
        Labels.of(
            "alertname",
            "GPUXIDCriticalError",
            "severity",
            "critical",
            "team",
            "training",
            "job",
            "ms-swift-lora",
            "rank",
            "3");
    assertThat(root.match(gpuCritical).stream().map(Route::receiver))
        .containsExactly("oncall", "training");
    assertThat(root.match(Labels.of("alertname", "Other")).stream().map(Route::receiver))
        .containsExactly("default");

    List<IntegrationConfig> oncallIntegrations = config.receivers().get(1).integrations();
    assertThat(oncallIntegrations.stream().map(IntegrationConfig::kind))
        .containsExactly("slack", "feishu", "feishu");
    assertThat(((FeishuConfig) oncallIntegrations.get(1)).secret()).isEqualTo("s3cret");
    WeComConfig wecom = (WeComConfig) config.receivers().get(2).integrations().get(1);
    assertThat(wecom.url().toString())
        .isEqualTo("https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=693a91f6-7xxx");
    WebhookConfig webhook = (WebhookConfig) config.receivers().get(0).integrations().getFirst();
    assertThat(webhook.sendResolved()).isFalse();
    assertThat(webhook.maxAlerts()).isEqualTo(10);
    assertThat(config.inhibitRules()).hasSize(2);
  }

  @Test
  void anAbsentSectionDisablesNotifications() throws Exception {
    NotificationsConfig config =
        TestConfigs.load(Path.of(getClass().getResource("/notifications/good/absent.yml").toURI()));
    assertThat(config.enabled()).isFalse();
  }
}
