package io.flightdeck.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What {@code /api/v1/status/config} shows: parsed, defaults filled in, secrets masked. */
class EffectiveConfigYamlTest {
  @TempDir Path dir;

  private Config load(String yaml) throws Exception {
    Path file = Files.writeString(Files.createTempFile(dir, "config", ".yml"), yaml);
    return ConfigLoader.load(file);
  }

  private static Path fixture(String name) throws URISyntaxException {
    return Path.of(EffectiveConfigYamlTest.class.getResource("/good/" + name).toURI());
  }

  @Test
  void fillsInEveryDefaultInPrometheusOrder() throws Exception {
    String yaml =
        EffectiveConfigYaml.render(
            load(
                """
                scrape_configs:
                  - job_name: node
                    static_configs: [{targets: ['127.0.0.1:9100'], labels: {rack: r1}}]
                    metric_relabel_configs:
                      - {source_labels: [__name__], regex: 'go_.*', action: drop}
                """));
    assertThat(yaml)
        .isEqualTo(
            """
            global:
              scrape_interval: 1m
              scrape_timeout: 10s
              scrape_protocols:
              - OpenMetricsText1.0.0
              - OpenMetricsText0.0.1
              - PrometheusText1.0.0
              - PrometheusText0.0.4
              evaluation_interval: 1m
            scrape_configs:
            - job_name: node
              honor_timestamps: true
              scrape_interval: 1m
              scrape_timeout: 10s
              scrape_protocols:
              - OpenMetricsText1.0.0
              - OpenMetricsText0.0.1
              - PrometheusText1.0.0
              - PrometheusText0.0.4
              metrics_path: /metrics
              scheme: http
              enable_compression: true
              follow_redirects: true
              metric_relabel_configs:
              - source_labels:
                - __name__
                separator: ;
                regex: go_.*
                replacement: $1
                action: drop
              static_configs:
              - targets:
                - 127.0.0.1:9100
                labels:
                  rack: r1
            """);
  }

  @Test
  void neverShowsASecret() throws Exception {
    String yaml =
        EffectiveConfigYaml.render(
            load(
                """
                scrape_configs:
                  - job_name: a
                    basic_auth: {username: trainer, password: hunter2}
                    static_configs: [{targets: ['127.0.0.1:1']}]
                  - job_name: b
                    bearer_token: tok-123
                    proxy_url: http://proxyuser:proxypass@127.0.0.1:3128
                    static_configs: [{targets: ['127.0.0.1:2']}]
                remote_write:
                  - url: https://writer:pw-456@vm.example:8428/api/v1/write
                    authorization: {credentials: cred-789}
                notifications:
                  receivers:
                    - name: oncall
                      feishu_configs: [{url: 'https://open.feishu.cn/hook/tok-abc', secret: sign-def}]
                      wecom_configs: [{url: 'https://qyapi.weixin.qq.com/x', key: key-ghi}]
                """));
    for (String secret :
        new String[] {
          "hunter2", "tok-123", "proxypass", "pw-456", "cred-789", "tok-abc", "sign-def", "key-ghi"
        }) {
      assertThat(yaml).doesNotContain(secret);
    }
    assertThat(yaml)
        .contains("username: trainer\n    password: <secret>")
        .contains("type: Bearer\n    credentials: <secret>")
        .contains("proxy_url: http://proxyuser:xxxxx@127.0.0.1:3128")
        .contains("url: https://writer:xxxxx@vm.example:8428/api/v1/write")
        .contains("name: oncall");
  }

  @Test
  void whatItShowsLoadsBackToTheSameConfiguration() throws Exception {
    Config original =
        load(
            """
            global:
              scrape_interval: 15s
              rule_query_offset: 30s
              external_labels: {cluster: gpu-a}
              body_size_limit: 10MB
              sample_limit: 5000
            rule_files: ['rules/*.yml']
            alerting:
              alert_relabel_configs: [{action: labeldrop, regex: replica}]
              alertmanagers:
                - scheme: https
                  path_prefix: /am
                  timeout: 5s
                  tls_config: {ca_file: /etc/ca.pem, insecure_skip_verify: true}
                  file_sd_configs: [{files: ['am/*.json'], refresh_interval: 1m}]
            scrape_configs:
              - job_name: trainer
                honor_labels: true
                honor_timestamps: false
                params: {module: [gpu, host]}
                scrape_interval: 5s
                scrape_protocols: [PrometheusText0.0.4]
                fallback_scrape_protocol: PrometheusText0.0.4
                enable_compression: false
                label_limit: 64
                target_limit: 100
                authorization: {credentials_file: /run/token}
                follow_redirects: false
                relabel_configs:
                  - {source_labels: [__address__], modulus: 4, target_label: shard, action: hashmod}
                http_sd_configs: [{url: 'http://127.0.0.1:8000/targets', refresh_interval: 30s}]
                kubernetes_sd_configs:
                  - role: pod
                    namespaces: {names: [training]}
                    selectors: [{role: pod, label: 'app=trainer'}]
            remote_write:
              - url: http://127.0.0.1:8428/api/v1/write
                name: vm
                remote_timeout: 10s
                headers: {X-Scope-OrgID: team-a}
                write_relabel_configs: [{source_labels: [__name__], regex: 'DCGM_.*', action: keep}]
                queue_config: {capacity: 5000, max_shards: 8, batch_send_deadline: 2s}
            tensorboard:
              logdirs: [/data/runs]
              poll_interval: 2s
            """);
    String shown = EffectiveConfigYaml.render(original);
    Config reloaded = load(shown);
    assertThat(reloaded).isEqualTo(original);
    assertThat(EffectiveConfigYaml.render(reloaded)).isEqualTo(shown);
    assertThat(shown).contains("body_size_limit: 10MiB").contains("modulus: 4");
  }

  @Test
  void theFullExampleShowsTheSameAfterAReload() throws Exception {
    String shown = EffectiveConfigYaml.render(ConfigLoader.load(fixture("full.yml")));
    assertThat(shown).doesNotContain("hunter2").contains("<secret>");
    assertThat(EffectiveConfigYaml.render(load(shown))).isEqualTo(shown);
  }

  @Test
  void urlsLoseTheirPasswordsOnly() throws Exception {
    assertThat(EffectiveConfigYaml.redacted(new URI("http://u@h:1/p?q=1")))
        .isEqualTo("http://u@h:1/p?q=1");
    assertThat(EffectiveConfigYaml.redacted(new URI("http://u:p@h/p?q=1")))
        .isEqualTo("http://u:xxxxx@h/p?q=1");
  }
}
