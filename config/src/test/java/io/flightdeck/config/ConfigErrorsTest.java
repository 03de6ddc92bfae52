package io.flightdeck.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One bad and one good variant per check, with the exact message: {@code FILE:LINE:COLUMN: FIELD:
 * REASON}.
 */
class ConfigErrorsTest {
  @TempDir Path dir;

  static Stream<Arguments> cases() {
    return Stream.of(
        check(
            "unknown top-level field",
            "foo: 1\n",
            "global: {}\n",
            "1:1: foo: field foo not found in type config.Config"),
        check(
            "unknown scrape field",
            "scrape_configs:\n  - job_name: a\n    foo: 1\n",
            "scrape_configs:\n  - job_name: a\n",
            "3:5: scrape_configs[0].foo: field foo not found in type config.ScrapeConfig"),
        check(
            "repeated field",
            "global:\n  scrape_interval: 10s\n  scrape_interval: 20s\n",
            "global:\n  scrape_interval: 10s\n",
            "3:3: global.scrape_interval: field scrape_interval already set in type"
                + " config.GlobalConfig"),
        check(
            "yaml syntax",
            "global: [\n",
            "global: {}\n",
            "2:1: yaml: expected the node content, but found '<stream end>'"),
        check(
            "bad duration",
            "global:\n  scrape_interval: 10x\n",
            "global:\n  scrape_interval: 1h30m\n",
            "2:3: global.scrape_interval: not a valid duration string: \"10x\""),
        check(
            "global timeout over interval",
            "global: {scrape_interval: 10s, scrape_timeout: 20s}\n",
            "global: {scrape_interval: 10s, scrape_timeout: 10s}\n",
            "1:32: global.scrape_timeout: global scrape timeout greater than scrape interval"),
        check(
            "external label name",
            "global:\n  external_labels: {a-b: x}\n",
            "global:\n  external_labels: {a_b: x}\n",
            "2:3: global.external_labels: \"a-b\" is not a valid label name"),
        check(
            "scrape timeout over interval",
            "global:\n  scrape_interval: 10s\nscrape_configs:\n  - job_name: a\n"
                + "    scrape_timeout: 15s\n",
            "global:\n  scrape_interval: 10s\nscrape_configs:\n  - job_name: a\n"
                + "    scrape_timeout: 10s\n",
            "5:5: scrape_configs[0].scrape_timeout: scrape timeout greater than scrape interval"
                + " for scrape config with job name \"a\""),
        check(
            "empty job name",
            "scrape_configs:\n  - job_name: \"\"\n",
            "scrape_configs:\n  - job_name: x\n",
            "2:5: scrape_configs[0].job_name: job_name is empty"),
        check(
            "missing job name",
            "scrape_configs:\n  - metrics_path: /m\n",
            "scrape_configs:\n  - job_name: j\n    metrics_path: /m\n",
            "2:5: scrape_configs[0].job_name: job_name is empty"),
        check(
            "duplicate job",
            "scrape_configs:\n  - job_name: a\n  - job_name: a\n",
            "scrape_configs:\n  - job_name: a\n  - job_name: b\n",
            "3:5: scrape_configs[1]: found multiple scrape configs with job name \"a\""),
        check(
            "null scrape config",
            "scrape_configs: [null]\n",
            "scrape_configs: []\n",
            "1:18: scrape_configs[0]: empty or null scrape config section"),
        check(
            "scrape configs not a list",
            "scrape_configs: {a: 1}\n",
            "scrape_configs:\n",
            "1:1: scrape_configs: cannot unmarshal !!map into []*config.ScrapeConfig"),
        check(
            "scheme",
            "scrape_configs:\n  - job_name: a\n    scheme: ftp\n",
            "scrape_configs:\n  - job_name: a\n    scheme: https\n",
            "3:5: scrape_configs[0].scheme: scheme must be \"http\" or \"https\", got \"ftp\""),
        check(
            "bool",
            "scrape_configs:\n  - job_name: a\n    honor_labels: maybe\n",
            "scrape_configs:\n  - job_name: a\n    honor_labels: yes\n",
            "3:5: scrape_configs[0].honor_labels: cannot unmarshal !!str `maybe` into bool"),
        check(
            "a prometheus.yml section Flightdeck lacks",
            "remote_read:\n  - url: http://thanos:10902/api/v1/read\n",
            "remote_write:\n  - url: http://thanos:10908/api/v1/receive\n",
            "1:1: remote_read: the prometheus.yml section remote_read is not supported by"
                + " Flightdeck"),
        check(
            "negative limit",
            "scrape_configs:\n  - job_name: a\n    sample_limit: -1\n",
            "scrape_configs:\n  - job_name: a\n    sample_limit: 0\n",
            "3:5: scrape_configs[0].sample_limit: cannot unmarshal !!int `-1` into uint"),
        check(
            "body size",
            "scrape_configs:\n  - job_name: a\n    body_size_limit: 10XB\n",
            "scrape_configs:\n  - job_name: a\n    body_size_limit: 10KB\n",
            "3:5: scrape_configs[0].body_size_limit: not a valid byte size: \"10XB\" (use e.g."
                + " 512MB, 10GiB)"),
        check(
            "password and password file",
            "scrape_configs:\n  - job_name: a\n    basic_auth: {username: u, password: p,"
                + " password_file: f}\n",
            "scrape_configs:\n  - job_name: a\n    basic_auth: {username: u, password_file: f}\n",
            "3:5: scrape_configs[0].basic_auth: at most one of basic_auth password &"
                + " password_file must be configured"),
        check(
            "credentials and credentials file",
            "scrape_configs:\n  - job_name: a\n    authorization: {credentials: c,"
                + " credentials_file: f}\n",
            "scrape_configs:\n  - job_name: a\n    authorization: {credentials: c}\n",
            "3:5: scrape_configs[0].authorization: at most one of authorization credentials &"
                + " credentials_file must be configured"),
        check(
            "basic authorization type",
            "scrape_configs:\n  - job_name: a\n    authorization: {type: Basic}\n",
            "scrape_configs:\n  - job_name: a\n    authorization: {type: Token}\n",
            "3:21: scrape_configs[0].authorization.type: authorization type cannot be set to"
                + " \"basic\", use \"basic_auth\" instead"),
        check(
            "two kinds of auth",
            "scrape_configs:\n  - job_name: a\n    basic_auth: {username: u}\n"
                + "    authorization: {credentials: c}\n",
            "scrape_configs:\n  - job_name: a\n    basic_auth: {username: u}\n",
            "4:5: scrape_configs[0].authorization: at most one of basic_auth, oauth2 &"
                + " authorization must be configured"),
        check(
            "unknown scrape protocol",
            "scrape_configs:\n  - job_name: node\n    scrape_protocols: [prometheusproto]\n",
            "scrape_configs:\n  - job_name: node\n    scrape_protocols: [PrometheusProto]\n",
            "3:5: scrape_configs[0].scrape_protocols: scrape_protocols: unknown scrape protocol"
                + " prometheusproto, supported: [OpenMetricsText0.0.1 OpenMetricsText1.0.0"
                + " PrometheusProto PrometheusText0.0.4 PrometheusText1.0.0] for scrape config"
                + " with job name \"node\""),
        check(
            "duplicated scrape protocol",
            "global:\n  scrape_protocols: [OpenMetricsText1.0.0, PrometheusProto,"
                + " openmetricstext1.0.0]\n",
            "global:\n  scrape_protocols: [OpenMetricsText1.0.0, PrometheusProto]\n",
            "2:3: global.scrape_protocols: duplicated protocol in scrape_protocols, got"
                + " [OpenMetricsText1.0.0 PrometheusProto openmetricstext1.0.0] for global"
                + " config"),
        check(
            "empty scrape protocols",
            "scrape_configs:\n  - job_name: a\n    scrape_protocols: []\n",
            "scrape_configs:\n  - job_name: a\n",
            "3:5: scrape_configs[0].scrape_protocols: scrape_protocols cannot be empty for"
                + " scrape config with job name \"a\""),
        check(
            "unknown fallback scrape protocol",
            "scrape_configs:\n  - job_name: node\n    fallback_scrape_protocol: text\n",
            "scrape_configs:\n  - job_name: node\n    fallback_scrape_protocol:"
                + " PrometheusText0.0.4\n",
            "3:5: scrape_configs[0].fallback_scrape_protocol: invalid fallback_scrape_protocol"
                + " for scrape config with job name \"node\": unknown scrape protocol text,"
                + " supported: [OpenMetricsText0.0.1 OpenMetricsText1.0.0 PrometheusProto"
                + " PrometheusText0.0.4 PrometheusText1.0.0]"),
        check(
            "unknown tls field",
            "scrape_configs:\n  - job_name: a\n    tls_config: {ca: x}\n",
            "scrape_configs:\n  - job_name: a\n    tls_config: {ca_file: x}\n",
            "3:18: scrape_configs[0].tls_config.ca: field ca not found in type config.TLSConfig"),
        check(
            "url as static target",
            "scrape_configs:\n  - job_name: a\n    static_configs: [{targets: [\"http://x:9090\"]}]\n",
            "scrape_configs:\n  - job_name: a\n    static_configs: [{targets: [\"x:9090\"]}]\n",
            "3:23: scrape_configs[0].static_configs[0].targets: \"http://x:9090\" is not a valid"
                + " hostname"),
        check(
            "static label name",
            "scrape_configs:\n  - job_name: a\n    static_configs: [{labels: {1a: x}}]\n",
            "scrape_configs:\n  - job_name: a\n    static_configs: [{labels: {a1: x}}]\n",
            "3:23: scrape_configs[0].static_configs[0].labels: \"1a\" is not a valid label name"),
        check(
            "file sd pattern",
            "scrape_configs:\n  - job_name: a\n    file_sd_configs: [{files: [foo.txt]}]\n",
            "scrape_configs:\n  - job_name: a\n    file_sd_configs: [{files: [foo.json]}]\n",
            "3:32: scrape_configs[0].file_sd_configs[0].files[0]: path name \"foo.txt\" is not valid"
                + " for file discovery"),
        check(
            "file sd without files",
            "scrape_configs:\n  - job_name: a\n    file_sd_configs: [{}]\n",
            "scrape_configs:\n  - job_name: a\n    file_sd_configs: [{files: [a/*.yml]}]\n",
            "3:23: scrape_configs[0].file_sd_configs[0]: file service discovery config must"
                + " contain at least one path name"),
        check(
            "http sd without url",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{}]\n",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{url: \"http://sd\"}]\n",
            "3:23: scrape_configs[0].http_sd_configs[0].url: URL is missing"),
        check(
            "http sd scheme",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{url: \"ftp://sd\"}]\n",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{url: \"https://sd\"}]\n",
            "3:24: scrape_configs[0].http_sd_configs[0].url: URL scheme must be 'http' or"
                + " 'https'"),
        check(
            "http sd host",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{url: \"http:///x\"}]\n",
            "scrape_configs:\n  - job_name: a\n    http_sd_configs: [{url: \"http://h/x\"}]\n",
            "3:24: scrape_configs[0].http_sd_configs[0].url: host is missing in URL"),
        check(
            "kubernetes role missing",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: node}]\n",
            "3:29: scrape_configs[0].kubernetes_sd_configs[0].role: role missing (one of: pod,"
                + " service, endpoints, endpointslice, node, ingress)"),
        check(
            "kubernetes role unknown",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: foo}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: ingress}]\n",
            "3:30: scrape_configs[0].kubernetes_sd_configs[0].role: unknown Kubernetes SD role"
                + " \"foo\""),
        check(
            "kubernetes api server and kubeconfig",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod, api_server:"
                + " \"https://k\", kubeconfig_file: k}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod, api_server:"
                + " \"https://k\"}]\n",
            "3:29: scrape_configs[0].kubernetes_sd_configs[0]: cannot use 'kubeconfig_file' and"
                + " 'api_server' simultaneously"),
        check(
            "kubernetes own namespace with api server",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod, api_server:"
                + " \"https://k\", namespaces: {own_namespace: true}}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod, namespaces:"
                + " {own_namespace: true}}]\n",
            "3:29: scrape_configs[0].kubernetes_sd_configs[0]: cannot use 'api_server' and"
                + " 'namespaces.own_namespace' simultaneously"),
        check(
            "kubernetes selector role",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: pod, selectors:"
                + " [{role: service}]}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: endpoints,"
                + " selectors: [{role: service}]}]\n",
            "3:53: scrape_configs[0].kubernetes_sd_configs[0].selectors[0]: pod role supports"
                + " only pod selectors"),
        check(
            "kubernetes duplicated selector",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: endpoints,"
                + " selectors: [{role: pod}, {role: pod}]}]\n",
            "scrape_configs:\n  - job_name: a\n    kubernetes_sd_configs: [{role: endpoints,"
                + " selectors: [{role: pod}, {role: endpoints}]}]\n",
            "3:72: scrape_configs[0].kubernetes_sd_configs[0].selectors[1]: duplicated selector"
                + " role: pod"),
        check(
            "relabel null rule",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [null]\n",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: []\n",
            "3:23: scrape_configs[0].relabel_configs[0]: empty or null target relabeling rule in"
                + " scrape config"),
        check(
            "relabel unknown action",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{action: foo}]\n",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{action: drop}]\n",
            "3:24: scrape_configs[0].relabel_configs[0].action: unknown relabel action \"foo\""),
        check(
            "relabel hashmod modulus",
            "scrape_configs:\n  - job_name: a\n    metric_relabel_configs: [{action: hashmod,"
                + " target_label: x}]\n",
            "scrape_configs:\n  - job_name: a\n    metric_relabel_configs: [{action: hashmod,"
                + " target_label: x, modulus: 8}]\n",
            "3:30: scrape_configs[0].metric_relabel_configs[0]: relabel configuration for hashmod"
                + " requires non-zero modulus"),
        check(
            "relabel regex",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{regex: \"a(\", target_label:"
                + " x}]\n",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{regex: \"a()\", target_label:"
                + " x}]\n",
            "3:24: scrape_configs[0].relabel_configs[0].regex: error parsing regexp: missing"
                + " closing ): `^(?:a()$`"),
        check(
            "relabel labeldrop fields",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{action: labeldrop, regex: a,"
                + " source_labels: [x]}]\n",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{action: labeldrop, regex:"
                + " a}]\n",
            "3:23: scrape_configs[0].relabel_configs[0]: labeldrop action requires only 'regex',"
                + " and no other fields"),
        check(
            "relabel source label name",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{source_labels: [a-b],"
                + " target_label: x}]\n",
            "scrape_configs:\n  - job_name: a\n    relabel_configs: [{source_labels: [a_b],"
                + " target_label: x}]\n",
            "3:24: scrape_configs[0].relabel_configs[0].source_labels: \"a-b\" is not a valid"
                + " label name"),
        check(
            "rule file path",
            "rule_files: [\"a/*/b/*.yml\"]\n",
            "rule_files: [\"a/b/*.yml\"]\n",
            "1:14: rule_files[0]: invalid rule file path \"a/*/b/*.yml\""),
        check(
            "alertmanager api version",
            "alerting: {alertmanagers: [{api_version: v1}]}\n",
            "alerting: {alertmanagers: [{api_version: v2}]}\n",
            "1:29: alerting.alertmanagers[0].api_version: expected Alertmanager api version to be"
                + " one of [v2] but got v1"),
        check(
            "alert relabel null",
            "alerting: {alert_relabel_configs: [null]}\n",
            "alerting: {alert_relabel_configs: []}\n",
            "1:36: alerting.alert_relabel_configs[0]: empty or null alert relabeling rule"),
        check(
            "remote write url",
            "remote_write: [{name: x}]\n",
            "remote_write: [{name: x, url: \"http://x\"}]\n",
            "1:16: remote_write[0].url: url for remote_write is empty"),
        check(
            "remote write authorization header",
            "remote_write: [{url: \"http://x\", headers: {Authorization: x}}]\n",
            "remote_write: [{url: \"http://x\", headers: {X-Org: x}}]\n",
            "1:34: remote_write[0].headers: authorization header must be changed via the"
                + " basic_auth, authorization, oauth2, sigv4, azuread or google_iam parameter"),
        check(
            "remote write reserved header",
            "remote_write: [{url: \"http://x\", headers: {Host: x}}]\n",
            "remote_write: [{url: \"http://x\", headers: {Hostname: x}}]\n",
            "1:34: remote_write[0].headers: Host is a reserved header. It must not be changed"),
        check(
            "remote write duplicate name",
            "remote_write: [{url: \"http://x\", name: a}, {url: \"http://y\", name: a}]\n",
            "remote_write: [{url: \"http://x\", name: a}, {url: \"http://y\", name: b}]\n",
            "1:44: remote_write[1]: found multiple remote write configs with job name \"a\""),
        check(
            "queue config field",
            "remote_write: [{url: \"http://x\", queue_config: {shards: 2}}]\n",
            "remote_write: [{url: \"http://x\", queue_config: {max_shards: 2}}]\n",
            "1:49: remote_write[0].queue_config.shards: field shards not found in type"
                + " config.QueueConfig"),
        check(
            "queue config int",
            "remote_write: [{url: \"http://x\", queue_config: {capacity: lots}}]\n",
            "remote_write: [{url: \"http://x\", queue_config: {capacity: 100}}]\n",
            "1:49: remote_write[0].queue_config.capacity: cannot unmarshal !!str `lots` into int"),
        check(
            "tensorboard poll interval",
            "tensorboard: {logdirs: [runs], poll_interval: 0s}\n",
            "tensorboard: {logdirs: [runs], poll_interval: 500ms}\n",
            "1:32: tensorboard.poll_interval: poll_interval must be greater than 0"),
        check(
            "tensorboard empty logdir",
            "tensorboard: {logdirs: [\"\"]}\n",
            "tensorboard: {logdirs: [\"runs\"]}\n",
            "1:25: tensorboard.logdirs[0]: logdir is empty"),
        check(
            "bearer token beside basic auth",
            "scrape_configs:\n  - job_name: a\n    basic_auth: {username: u}\n"
                + "    bearer_token: t\n",
            "scrape_configs:\n  - job_name: a\n    bearer_token: t\n"
                + "    follow_redirects: false\n    enable_http2: false\n",
            "4:5: scrape_configs[0].bearer_token: at most one of basic_auth, oauth2, bearer_token"
                + " & bearer_token_file must be configured"),
        check(
            "oauth2",
            "scrape_configs:\n  - job_name: a\n    oauth2: {client_id: x}\n",
            "scrape_configs:\n  - job_name: a\n    authorization: {credentials: x}\n",
            "3:5: scrape_configs[0].oauth2: oauth2 is not supported by Flightdeck yet"),
        check(
            "proxy url",
            "scrape_configs:\n  - job_name: a\n    proxy_url: socks5://proxy:1080\n",
            "scrape_configs:\n  - job_name: a\n    proxy_url: http://proxy:3128\n",
            "3:5: scrape_configs[0].proxy_url: proxy_url must be an http or https URL with a host:"
                + " socks5://proxy:1080"),
        check(
            "notifications not a mapping",
            "notifications: [a]\n",
            "notifications: {a: [1]}\n",
            "1:1: notifications: cannot unmarshal !!seq into notifications"));
  }

  private static Arguments check(String name, String bad, String good, String error) {
    return Arguments.of(name, bad, good, error);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void badFixtureFailsWithExactMessage(String name, String bad, String good, String error)
      throws Exception {
    Path file = Files.writeString(dir.resolve("flightdeck.yml"), bad);
    assertThatThrownBy(() -> ConfigLoader.load(file))
        .isInstanceOf(ConfigException.class)
        .hasMessage(file + ":" + error);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void goodFixtureLoadsAndKeepsTheValueThatFixedIt(
      String name, String bad, String good, String error) throws Exception {
    Path file = Files.writeString(dir.resolve("flightdeck.yml"), good);
    String effective = EffectiveConfigYaml.render(ConfigLoader.load(file));
    for (String value : valuesOnlyIn(good, bad)) {
      assertThat(effective).as("the effective config of %s", good).contains(value);
    }
  }

  /** How the effective config writes a value: YAML 1.1 booleans and Prometheus's byte units. */
  private static String asRendered(String value) {
    return switch (value) {
      case "yes", "on" -> "true";
      case "no", "off" -> "false";
      default -> value.matches("\\d+[KMGTPE]B") ? value.replace("B", "iB") : value;
    };
  }

  /** The scalar values of {@code good}'s lines that {@code bad} lacks: what the fix changed. */
  private static java.util.List<String> valuesOnlyIn(String good, String bad) {
    java.util.Set<String> badLines = new java.util.HashSet<>(java.util.List.of(bad.split("\n")));
    java.util.List<String> values = new java.util.ArrayList<>();
    for (String line : good.split("\n")) {
      if (badLines.contains(line) || !line.contains(": ")) {
        continue;
      }
      String value = line.substring(line.indexOf(": ") + 2).strip();
      if (!value.isEmpty() && !value.startsWith("[") && !value.startsWith("{")) {
        values.add(asRendered(value.replaceAll("^['\"]|['\"]$", "")));
      }
    }
    return values;
  }
}
