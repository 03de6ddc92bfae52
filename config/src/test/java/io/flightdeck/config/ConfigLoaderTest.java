package io.flightdeck.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.KubernetesSdConfig.Role;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelAction;
import io.flightdeck.model.relabel.Relabeler;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ConfigLoaderTest {

  private static Path fixture(String name) throws URISyntaxException {
    return Path.of(ConfigLoaderTest.class.getResource("/good/" + name).toURI());
  }

  @Test
  void readsEverySection() throws Exception {
    Path file = fixture("full.yml");
    Path dir = file.getParent();
    Config c = ConfigLoader.load(file);

    assertThat(c.global().scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.global().scrapeTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.global().evaluationInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.global().externalLabels())
        .isEqualTo(Labels.of("cluster", "gpu-a", "monitor", "example"));

    assertThat(c.ruleFiles())
        .containsExactly(
            dir.resolve("rules/first_rules.yml"),
            dir.resolve("rules/*.rules.yml"),
            Path.of("/etc/flightdeck/alerts.yml"));

    AlertmanagerConfig am = c.alerting().alertmanagers().get(0);
    assertThat(am.serviceDiscovery().staticConfigs().get(0).targets())
        .containsExactly("localhost:9093");
    assertThat(am.scheme()).isEqualTo("https");
    assertThat(am.pathPrefix()).isEqualTo("/am");
    assertThat(am.timeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(am.apiVersion()).isEqualTo("v2");
    assertThat(am.httpClient().basicAuth().passwordFile()).isEqualTo(dir.resolve("secrets/am.txt"));
    assertThat(c.alerting().alertRelabelConfigs()).hasSize(1);

    ScrapeConfig self = c.scrapeConfigs().get(0);
    assertThat(self.jobName()).isEqualTo("prometheus");
    assertThat(self.scrapeInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(self.scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(self.metricsPath()).isEqualTo("/metrics");
    assertThat(self.scheme()).isEqualTo("http");
    assertThat(self.honorTimestamps()).isTrue();
    assertThat(self.httpClient()).isEqualTo(HttpClientConfig.DEFAULT);

    ScrapeConfig t = c.scrapeConfigs().get(1);
    assertThat(t.scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(t.scrapeTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(t.metricsPath()).isEqualTo("/probe");
    assertThat(t.scheme()).isEqualTo("https");
    assertThat(t.params()).isEqualTo(Map.of("module", List.of("http_2xx", "tcp")));
    assertThat(t.honorLabels()).isTrue();
    assertThat(t.honorTimestamps()).isFalse();
    assertThat(t.limits()).isEqualTo(new ScrapeLimits(1000, 30, 200, 2000, 50, 10L << 20));
    assertThat(t.httpClient().authorization())
        .isEqualTo(new Authorization("Bearer", "", Path.of("/run/token")));
    assertThat(t.httpClient().tlsConfig())
        .isEqualTo(
            new TlsConfig(
                dir.resolve("ca.pem"),
                Path.of("/etc/tls/cert.pem"),
                Path.of("/etc/tls/key.pem"),
                "trainer.local",
                true));
    ServiceDiscoveryConfigs sd = t.serviceDiscovery();
    assertThat(sd.staticConfigs())
        .containsExactly(
            new StaticConfig(List.of("10.0.0.1:8000", "10.0.0.2:8000"), Labels.of("rank", "0")));
    assertThat(sd.fileSdConfigs())
        .containsExactly(
            new FileSdConfig(
                List.of(dir.resolve("targets/*.json"), dir.resolve("extra.yml")),
                Duration.ofMinutes(1)));
    assertThat(sd.httpSdConfigs())
        .containsExactly(
            new HttpSdConfig(URI.create("http://sd.local:8080/targets"), Duration.ofMinutes(1)));
    KubernetesSdConfig pods = sd.kubernetesSdConfigs().get(0);
    assertThat(pods.role()).isEqualTo(Role.POD);
    assertThat(pods.namespaces().names()).containsExactly("training");
    assertThat(pods.selectors())
        .containsExactly(
            new KubernetesSdConfig.Selector(Role.POD, "app=trainer", "spec.nodeName=gpu-1"));
    assertThat(sd.kubernetesSdConfigs().get(1).apiServer())
        .isEqualTo(URI.create("https://k8s.local:6443"));
    assertThat(t.relabelConfigs())
        .extracting(r -> r.action())
        .containsExactly(RelabelAction.KEEP, RelabelAction.HASHMOD, RelabelAction.LABELMAP);
    assertThat(t.metricRelabelConfigs()).hasSize(1);
    assertThat(
            Relabeler.process(
                Labels.of("__name__", "go_gc_duration_seconds"), t.metricRelabelConfigs()))
        .isNull();

    RemoteWriteConfig rw = c.remoteWrite().get(0);
    assertThat(rw.url()).isEqualTo(URI.create("https://vm.local:8428/api/v1/write"));
    assertThat(rw.name()).isEqualTo("central");
    assertThat(rw.remoteTimeout()).isEqualTo(Duration.ofMinutes(1));
    assertThat(rw.headers()).isEqualTo(Map.of("X-Scope-OrgID", "team-a"));
    assertThat(rw.httpClient().basicAuth().password()).isEqualTo("hunter2");
    assertThat(rw.httpClient().basicAuth().toString()).doesNotContain("hunter2");
    assertThat(rw.writeRelabelConfigs()).hasSize(1);
    assertThat(rw.queueConfig())
        .isEqualTo(
            new QueueConfig(
                2500,
                200,
                2,
                500,
                Duration.ofSeconds(10),
                Duration.ofMillis(100),
                Duration.ofSeconds(10)));

    assertThat(c.tensorboard().logdirs()).containsExactly(dir.resolve("runs"), Path.of("/data/tb"));
    assertThat(c.tensorboard().pollInterval()).isEqualTo(Duration.ofSeconds(2));

    assertThat(c.notifications()).containsOnlyKeys("feishu", "retries", "quiet");
    assertThat(c.notifications().get("retries")).isEqualTo("3");
    assertThat(c.notifications().get("quiet")).isNull();
    assertThat(c.notifications().get("feishu"))
        .isEqualTo(
            List.of(
                Map.of(
                    "name",
                    "oncall",
                    "webhook",
                    "https://open.feishu.cn/hook/abc",
                    "mentions",
                    List.of("alice", "bob"))));
  }

  @Test
  void readsDebiansExampleUnchanged() throws Exception {
    Config c = ConfigLoader.load(fixture("debian-example.yml"));
    assertThat(c.global().scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.global().evaluationInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.global().scrapeTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(c.ruleFiles()).isEmpty();
    assertThat(c.scrapeConfigs())
        .extracting(ScrapeConfig::jobName)
        .containsExactly("prometheus", "node");
    assertThat(c.scrapeConfigs().get(1).scrapeInterval()).isEqualTo(Duration.ofSeconds(15));
    assertThat(c.alerting().alertmanagers()).hasSize(1);
  }

  @Test
  void emptyFileGivesDefaults(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("empty.yml"), "");
    Config c = ConfigLoader.load(file);
    assertThat(c.global()).isEqualTo(GlobalConfig.DEFAULT);
    assertThat(c.scrapeConfigs()).isEmpty();
    assertThat(c.alerting()).isEqualTo(AlertingConfig.NONE);
    assertThat(c.tensorboard()).isEqualTo(TensorBoardConfig.NONE);
    assertThat(c.notifications()).isEmpty();
  }

  @Test
  void scrapeTimeoutDefaultsToTheSmallerOfGlobalTimeoutAndInterval(@TempDir Path dir)
      throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("p.yml"),
            """
            global: {scrape_interval: 5s}
            scrape_configs: [{job_name: a}, {job_name: b, scrape_interval: 2s}]
            """);
    Config c = ConfigLoader.load(file);
    assertThat(c.global().scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.scrapeConfigs().get(0).scrapeTimeout()).isEqualTo(Duration.ofSeconds(5));
    assertThat(c.scrapeConfigs().get(1).scrapeTimeout()).isEqualTo(Duration.ofSeconds(2));
  }

  @Test
  void jobsWithoutLimitsTakeTheGlobalOnesAsInPrometheus(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("p.yml"),
            """
            global:
              sample_limit: 1000
              label_limit: 30
              body_size_limit: 10MB
              rule_query_offset: 30s
            scrape_configs:
              - job_name: inherits
              - job_name: zero_inherits_too
                sample_limit: 0
              - job_name: own
                sample_limit: 50
                target_limit: 3
            """);
    Config c = ConfigLoader.load(file);

    assertThat(c.global().ruleQueryOffset()).isEqualTo(Duration.ofSeconds(30));
    assertThat(c.scrapeConfigs())
        .extracting(ScrapeConfig::limits)
        .containsExactly(
            new ScrapeLimits(1000, 30, 0, 0, 0, 10L << 20),
            new ScrapeLimits(1000, 30, 0, 0, 0, 10L << 20),
            new ScrapeLimits(50, 30, 0, 0, 3, 10L << 20));
  }

  @Test
  void defaultSelfScrapeScrapesTheListenAddress() {
    Config c = Config.defaultSelfScrape("localhost:9090");
    assertThat(c.global()).isEqualTo(GlobalConfig.DEFAULT);
    ScrapeConfig self = c.scrapeConfigs().get(0);
    assertThat(self.jobName()).isEqualTo("flightdeck");
    assertThat(self.metricsPath()).isEqualTo("/metrics");
    assertThat(self.scrapeInterval()).isEqualTo(Duration.ofMinutes(1));
    assertThat(self.scrapeTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(self.serviceDiscovery().staticConfigs().get(0).targets())
        .containsExactly("localhost:9090");
  }

  @Test
  void exceptionNamesFileLineColumnAndField(@TempDir Path dir) throws Exception {
    Path file =
        Files.writeString(
            dir.resolve("flightdeck.yml"),
            "global:\n  scrape_interval: 10s\nscrape_configs:\n  - job_name: a\n"
                + "    scrape_timeout: 15s\n");
    ConfigException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            ConfigException.class, () -> ConfigLoader.load(file));
    assertThat(e.file()).isEqualTo(file.toString());
    assertThat(e.line()).isEqualTo(5);
    assertThat(e.column()).isEqualTo(5);
    assertThat(e.field()).isEqualTo("scrape_configs[0].scrape_timeout");
    assertThat(e.reason())
        .isEqualTo(
            "scrape timeout greater than scrape interval for scrape config with job name \"a\"");
  }

  @Test
  void missingFileIsAConfigException(@TempDir Path dir) {
    Path file = dir.resolve("absent.yml");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> ConfigLoader.load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith(file + ":1:1: cannot read config file: ");
  }

  @Test
  void prometheus2BearerTokensRedirectsAndProxiesAreRead(@org.junit.jupiter.api.io.TempDir Path dir)
      throws Exception {
    Path file =
        java.nio.file.Files.writeString(
            dir.resolve("p.yml"),
            """
            scrape_configs:
              - job_name: a
                bearer_token: s3cret
                follow_redirects: false
                proxy_url: http://proxy.lab:3128
              - job_name: b
                bearer_token_file: /var/run/token
            """);
    Config c = ConfigLoader.load(file);
    HttpClientConfig a = c.scrapeConfigs().get(0).httpClient();
    assertThat(a.authorization()).isEqualTo(new Authorization("Bearer", "s3cret", null));
    assertThat(a.followRedirects()).isFalse();
    assertThat(a.proxyUrl()).hasToString("http://proxy.lab:3128");
    HttpClientConfig b = c.scrapeConfigs().get(1).httpClient();
    assertThat(b.authorization().credentialsFile()).isEqualTo(Path.of("/var/run/token"));
    assertThat(b.followRedirects()).isTrue();
    assertThat(b.proxyUrl()).isNull();
  }
}
