package io.flightdeck.notify;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.AlertingConfig;
import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.config.FileSdConfig;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.ServiceDiscoveryConfigs;
import io.flightdeck.config.StaticConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.RelabelConfig;
import io.flightdeck.testkit.SelfSignedCertificate;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alertmanagers found by file discovery and reached over TLS, as an alerting section asks. */
class AlertmanagerDiscoveryTest {
  @TempDir Path dir;

  private static AlertmanagerConfig section(
      ServiceDiscoveryConfigs sd, String scheme, TlsConfig tls, RelabelConfig... relabel) {
    return new AlertmanagerConfig(
        sd,
        new HttpClientConfig(null, null, tls),
        scheme,
        "",
        Duration.ofSeconds(2),
        "v2",
        List.of(relabel));
  }

  private static AlertmanagerNotifier notifier(AlertmanagerConfig section) {
    return new AlertmanagerNotifier(
        AlertmanagerNotifierOptions.defaults(new AlertingConfig(List.of(), List.of(section)))
            .withRetries(1, Duration.ZERO));
  }

  private static List<NotifyAlert> alert(String name) {
    return List.of(new NotifyAlert(Labels.of("alertname", name), Labels.EMPTY, 1000, 0, ""));
  }

  /** Replaces the file at once, as a deployment tool would, so no half file is ever read. */
  private void writeTargets(Path file, String json) throws Exception {
    Path tmp = dir.resolve("tmp.json");
    Files.writeString(tmp, json);
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE);
  }

  private static void await(BooleanSupplier condition, String what) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within 15 s: " + what);
      }
      Thread.sleep(50);
    }
  }

  @Test
  void alertsFollowTheAlertmanagersAFileNames() throws Exception {
    Path file = dir.resolve("alertmanagers.json");
    try (WebhookServer first = new WebhookServer();
        WebhookServer second = new WebhookServer()) {
      writeTargets(file, "[{\"targets\": [\"127.0.0.1:" + first.port() + "\"]}]");
      ServiceDiscoveryConfigs sd =
          new ServiceDiscoveryConfigs(
              List.of(),
              List.of(new FileSdConfig(List.of(file), Duration.ofMinutes(5))),
              List.of(),
              List.of());
      try (AlertmanagerNotifier n = notifier(section(sd, "http", TlsConfig.DEFAULT))) {
        String firstUrl = first.url("/api/v2/alerts");
        await(() -> n.alertmanagers().equals(List.of(firstUrl)), "the file's Alertmanager");
        n.send(alert("Before"));
        n.sendBatch(0);
        assertThat(first.drain())
            .singleElement()
            .extracting(r -> r.body())
            .asString()
            .contains("\"Before\"");

        writeTargets(file, "[{\"targets\": [\"127.0.0.1:" + second.port() + "\"]}]");
        String secondUrl = second.url("/api/v2/alerts");
        await(() -> n.alertmanagers().equals(List.of(secondUrl)), "the changed file's one");
        n.send(alert("After"));
        n.sendBatch(0);
        assertThat(second.drain())
            .singleElement()
            .extracting(r -> r.body())
            .asString()
            .contains("\"After\"");
        assertThat(first.drain()).as("the removed Alertmanager gets nothing more").isEmpty();
        assertThat(n.stats().sent()).containsEntry(firstUrl, 1L).containsEntry(secondUrl, 1L);
      }
    }
  }

  @Test
  void relabellingDropsAndDeduplicatesDiscoveredAlertmanagers() throws Exception {
    try (WebhookServer am = new WebhookServer()) {
      String kept = "127.0.0.1:" + am.port();
      ServiceDiscoveryConfigs sd =
          new ServiceDiscoveryConfigs(
              List.of(
                  new StaticConfig(List.of(kept, "10.0.0.9:9093"), Labels.of("zone", "a")),
                  new StaticConfig(List.of(kept), Labels.of("zone", "a"))),
              List.of(),
              List.of(),
              List.of());
      RelabelConfig dropOther =
          RelabelConfig.builder()
              .action(RelabelAction.DROP)
              .sourceLabels("__address__")
              .regex("10\\..*")
              .build();
      try (AlertmanagerNotifier n = notifier(section(sd, "http", TlsConfig.DEFAULT, dropOther))) {
        assertThat(n.alertmanagers()).containsExactly(am.url("/api/v2/alerts"));
        assertThat(n.droppedAlertmanagers()).containsExactly("http://10.0.0.9:9093/api/v2/alerts");
        n.send(alert("Once"));
        n.sendBatch(0);
        assertThat(am.drain()).as("found twice, posted to once").hasSize(1);
      }
    }
  }

  @Test
  void anHttpsAlertmanagerIsTrustedThroughTheSectionsCaFile() throws Exception {
    SelfSignedCertificate certificate =
        SelfSignedCertificate.create(dir, "localhost", "ip:127.0.0.1");
    Path caPem = certificate.caPem();
    try (WebhookServer am = new WebhookServer(certificate.serverContext())) {
      ServiceDiscoveryConfigs sd =
          new ServiceDiscoveryConfigs(
              List.of(new StaticConfig(List.of("127.0.0.1:" + am.port()), Labels.EMPTY)),
              List.of(),
              List.of(),
              List.of());
      String url = "https://127.0.0.1:" + am.port() + "/api/v2/alerts";

      try (AlertmanagerNotifier trusting =
          notifier(section(sd, "https", new TlsConfig(caPem, null, null, "", false)))) {
        trusting.send(alert("OverTls"));
        trusting.sendBatch(0);
        assertThat(am.drain())
            .singleElement()
            .extracting(r -> r.body())
            .asString()
            .contains("\"OverTls\"");
        assertThat(trusting.stats().sent()).containsEntry(url, 1L);
      }
      try (AlertmanagerNotifier untrusting = notifier(section(sd, "https", TlsConfig.DEFAULT))) {
        untrusting.send(alert("Refused"));
        untrusting.sendBatch(0);
        assertThat(am.drain()).as("an unknown certificate is not trusted").isEmpty();
        assertThat(untrusting.stats().errors()).containsEntry(url, 1L);
      }
    }
  }

  @Test
  void anUnreadableCaFileNamesTheSection() {
    ServiceDiscoveryConfigs sd =
        new ServiceDiscoveryConfigs(
            List.of(new StaticConfig(List.of("127.0.0.1:1"), Labels.EMPTY)),
            List.of(),
            List.of(),
            List.of());
    TlsConfig missing = new TlsConfig(dir.resolve("nope.pem"), null, null, "", false);
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> notifier(section(sd, "https", missing)))
        .isInstanceOf(NotificationsConfigException.class)
        .hasMessageStartingWith("alerting.alertmanagers[0].tls_config: unable to build TLS config")
        .hasMessageContaining("nope.pem");
  }
}
