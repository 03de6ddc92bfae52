package io.flightdeck.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.flightdeck.model.ByteSizeFormat;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.RelabelConfig;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The configuration in force as {@code /api/v1/status/config} shows it, the way Prometheus does:
 * the parsed values with every default filled in, keys in Prometheus 3's order, and every secret
 * (passwords, credentials, passwords in URLs, chat webhook URLs and keys) replaced by {@code
 * <secret>}, so that the API never hands out what the file protects.
 */
public final class EffectiveConfigYaml {
  static final String SECRET = "<secret>";

  /** Keys of the free-form {@code notifications} section whose values are credentials. */
  private static final Set<String> NOTIFICATION_SECRETS =
      Set.of("url", "api_url", "webhook", "secret", "key", "password", "token", "credentials");

  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .disable(YAMLGenerator.Feature.SPLIT_LINES)
          .build();

  private EffectiveConfigYaml() {}

  public static String render(Config config) {
    Map<String, Object> root = new LinkedHashMap<>();
    root.put("global", global(config.global()));
    putNonEmpty(root, "alerting", alerting(config.alerting()));
    putNonEmpty(root, "rule_files", config.ruleFiles().stream().map(Path::toString).toList());
    putNonEmpty(root, "scrape_configs", list(config.scrapeConfigs(), EffectiveConfigYaml::scrape));
    putNonEmpty(root, "remote_write", list(config.remoteWrite(), EffectiveConfigYaml::remoteWrite));
    TensorBoardConfig tensorboard = config.tensorboard();
    if (!tensorboard.logdirs().isEmpty()) {
      Map<String, Object> section = new LinkedHashMap<>();
      section.put("logdirs", tensorboard.logdirs().stream().map(Path::toString).toList());
      section.put("poll_interval", duration(tensorboard.pollInterval()));
      root.put("tensorboard", section);
    }
    putNonEmpty(root, "notifications", masked(config.notifications()));
    try {
      return YAML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static Map<String, Object> global(GlobalConfig g) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("scrape_interval", duration(g.scrapeInterval()));
    out.put("scrape_timeout", duration(g.scrapeTimeout()));
    out.put(
        "scrape_protocols", g.scrapeProtocols().stream().map(ScrapeProtocol::configName).toList());
    out.put("evaluation_interval", duration(g.evaluationInterval()));
    if (!g.ruleQueryOffset().isZero()) {
      out.put("rule_query_offset", duration(g.ruleQueryOffset()));
    }
    putNonEmpty(out, "external_labels", labels(g.externalLabels()));
    limits(out, g.scrapeLimits());
    return out;
  }

  private static Map<String, Object> alerting(AlertingConfig a) {
    Map<String, Object> out = new LinkedHashMap<>();
    putNonEmpty(out, "alert_relabel_configs", relabels(a.alertRelabelConfigs()));
    putNonEmpty(out, "alertmanagers", list(a.alertmanagers(), EffectiveConfigYaml::alertmanager));
    return out;
  }

  private static Map<String, Object> alertmanager(AlertmanagerConfig am) {
    Map<String, Object> out = new LinkedHashMap<>();
    httpClient(out, am.httpClient());
    out.put("scheme", am.scheme());
    if (!am.pathPrefix().isEmpty()) {
      out.put("path_prefix", am.pathPrefix());
    }
    out.put("timeout", duration(am.timeout()));
    out.put("api_version", am.apiVersion());
    putNonEmpty(out, "relabel_configs", relabels(am.relabelConfigs()));
    discovery(out, am.serviceDiscovery());
    return out;
  }

  private static Map<String, Object> scrape(ScrapeConfig s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("job_name", s.jobName());
    if (s.honorLabels()) {
      out.put("honor_labels", true);
    }
    out.put("honor_timestamps", s.honorTimestamps());
    putNonEmpty(out, "params", s.params());
    out.put("scrape_interval", duration(s.scrapeInterval()));
    out.put("scrape_timeout", duration(s.scrapeTimeout()));
    out.put(
        "scrape_protocols", s.scrapeProtocols().stream().map(ScrapeProtocol::configName).toList());
    if (s.fallbackScrapeProtocol() != null) {
      out.put("fallback_scrape_protocol", s.fallbackScrapeProtocol().configName());
    }
    out.put("metrics_path", s.metricsPath());
    out.put("scheme", s.scheme());
    out.put("enable_compression", s.enableCompression());
    limits(out, s.limits());
    httpClient(out, s.httpClient());
    putNonEmpty(out, "relabel_configs", relabels(s.relabelConfigs()));
    putNonEmpty(out, "metric_relabel_configs", relabels(s.metricRelabelConfigs()));
    discovery(out, s.serviceDiscovery());
    return out;
  }

  private static Map<String, Object> remoteWrite(RemoteWriteConfig r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("url", redacted(r.url()));
    out.put("remote_timeout", duration(r.remoteTimeout()));
    putNonEmpty(out, "headers", r.headers());
    putNonEmpty(out, "write_relabel_configs", relabels(r.writeRelabelConfigs()));
    if (!r.name().isEmpty()) {
      out.put("name", r.name());
    }
    httpClient(out, r.httpClient());
    QueueConfig q = r.queueConfig();
    Map<String, Object> queue = new LinkedHashMap<>();
    queue.put("capacity", q.capacity());
    queue.put("max_shards", q.maxShards());
    queue.put("min_shards", q.minShards());
    queue.put("max_samples_per_send", q.maxSamplesPerSend());
    queue.put("batch_send_deadline", duration(q.batchSendDeadline()));
    queue.put("min_backoff", duration(q.minBackoff()));
    queue.put("max_backoff", duration(q.maxBackoff()));
    out.put("queue_config", queue);
    return out;
  }

  /** The fields Prometheus inlines from {@code HTTPClientConfig}. */
  private static void httpClient(Map<String, Object> out, HttpClientConfig h) {
    if (h.basicAuth() != null) {
      BasicAuth b = h.basicAuth();
      Map<String, Object> basic = new LinkedHashMap<>();
      basic.put("username", b.username());
      if (!b.password().isEmpty()) {
        basic.put("password", SECRET);
      }
      if (b.passwordFile() != null) {
        basic.put("password_file", b.passwordFile().toString());
      }
      out.put("basic_auth", basic);
    }
    if (h.authorization() != null) {
      Authorization a = h.authorization();
      Map<String, Object> authorization = new LinkedHashMap<>();
      authorization.put("type", a.type());
      if (!a.credentials().isEmpty()) {
        authorization.put("credentials", SECRET);
      }
      if (a.credentialsFile() != null) {
        authorization.put("credentials_file", a.credentialsFile().toString());
      }
      out.put("authorization", authorization);
    }
    if (h.proxyUrl() != null) {
      out.put("proxy_url", redacted(h.proxyUrl()));
    }
    if (!h.tlsConfig().equals(TlsConfig.DEFAULT)) {
      out.put("tls_config", tls(h.tlsConfig()));
    }
    out.put("follow_redirects", h.followRedirects());
  }

  private static Map<String, Object> tls(TlsConfig t) {
    Map<String, Object> out = new LinkedHashMap<>();
    putPath(out, "ca_file", t.caFile());
    putPath(out, "cert_file", t.certFile());
    putPath(out, "key_file", t.keyFile());
    if (!t.serverName().isEmpty()) {
      out.put("server_name", t.serverName());
    }
    out.put("insecure_skip_verify", t.insecureSkipVerify());
    return out;
  }

  /** Discovery sections go last, ordered by key, as Prometheus writes its inlined configs. */
  private static void discovery(Map<String, Object> out, ServiceDiscoveryConfigs sd) {
    putNonEmpty(
        out,
        "file_sd_configs",
        list(
            sd.fileSdConfigs(),
            f ->
                ordered(
                    "files",
                    f.files().stream().map(Path::toString).toList(),
                    "refresh_interval",
                    duration(f.refreshInterval()))));
    putNonEmpty(
        out,
        "http_sd_configs",
        list(
            sd.httpSdConfigs(),
            h ->
                ordered(
                    "url", redacted(h.url()), "refresh_interval", duration(h.refreshInterval()))));
    putNonEmpty(
        out,
        "kubernetes_sd_configs",
        list(sd.kubernetesSdConfigs(), EffectiveConfigYaml::kubernetes));
    putNonEmpty(
        out,
        "static_configs",
        list(
            sd.staticConfigs(),
            s -> {
              Map<String, Object> group = new LinkedHashMap<>();
              group.put("targets", s.targets());
              putNonEmpty(group, "labels", labels(s.labels()));
              return group;
            }));
  }

  private static Map<String, Object> kubernetes(KubernetesSdConfig k) {
    Map<String, Object> out = new LinkedHashMap<>();
    if (k.apiServer() != null) {
      out.put("api_server", redacted(k.apiServer()));
    }
    out.put("role", k.role().text());
    putPath(out, "kubeconfig_file", k.kubeconfigFile());
    Map<String, Object> namespaces = new LinkedHashMap<>();
    namespaces.put("own_namespace", k.namespaces().ownNamespace());
    putNonEmpty(namespaces, "names", k.namespaces().names());
    out.put("namespaces", namespaces);
    putNonEmpty(
        out,
        "selectors",
        list(
            k.selectors(),
            s -> {
              Map<String, Object> selector = new LinkedHashMap<>();
              selector.put("role", s.role().text());
              if (!s.label().isEmpty()) {
                selector.put("label", s.label());
              }
              if (!s.field().isEmpty()) {
                selector.put("field", s.field());
              }
              return selector;
            }));
    return out;
  }

  private static List<Object> relabels(List<RelabelConfig> configs) {
    return list(
        configs,
        r -> {
          Map<String, Object> out = new LinkedHashMap<>();
          putNonEmpty(out, "source_labels", r.sourceLabels());
          out.put("separator", r.separator());
          out.put("regex", r.regex().source());
          if (r.modulus() != 0) {
            out.put("modulus", r.modulus());
          }
          if (!r.targetLabel().isEmpty()) {
            out.put("target_label", r.targetLabel());
          }
          out.put("replacement", r.replacement());
          out.put("action", r.action().text());
          return out;
        });
  }

  /** The limits Prometheus leaves out when unset (zero). */
  private static void limits(Map<String, Object> out, ScrapeLimits l) {
    if (l.bodySizeLimit() != 0) {
      out.put("body_size_limit", ByteSizeFormat.format(l.bodySizeLimit()));
    }
    putPositive(out, "sample_limit", l.sampleLimit());
    putPositive(out, "target_limit", l.targetLimit());
    putPositive(out, "label_limit", l.labelLimit());
    putPositive(out, "label_name_length_limit", l.labelNameLengthLimit());
    putPositive(out, "label_value_length_limit", l.labelValueLengthLimit());
  }

  /** A URL with any password in it replaced, as Prometheus's {@code URL.Redacted()} does. */
  static String redacted(URI url) {
    String userInfo = url.getRawUserInfo();
    if (userInfo == null || !userInfo.contains(":")) {
      return url.toString();
    }
    try {
      String user = userInfo.substring(0, userInfo.indexOf(':'));
      return new URI(
              url.getScheme(),
              user + ":xxxxx",
              url.getHost(),
              url.getPort(),
              url.getRawPath(),
              url.getRawQuery(),
              url.getRawFragment())
          .toString();
    } catch (URISyntaxException e) {
      return SECRET;
    }
  }

  /** The raw notifications section with credential values replaced, recursively. */
  private static Map<String, Object> masked(Map<String, Object> section) {
    Map<String, Object> out = new LinkedHashMap<>();
    section.forEach(
        (key, value) ->
            out.put(
                key,
                NOTIFICATION_SECRETS.contains(key)
                        && !(value instanceof Map || value instanceof List)
                    ? SECRET
                    : maskedValue(value)));
    return out;
  }

  @SuppressWarnings("unchecked")
  private static Object maskedValue(Object value) {
    if (value instanceof Map<?, ?> map) {
      return masked((Map<String, Object>) map);
    }
    if (value instanceof List<?> items) {
      return items.stream().map(EffectiveConfigYaml::maskedValue).toList();
    }
    return value;
  }

  private static Map<String, String> labels(Labels labels) {
    Map<String, String> out = new LinkedHashMap<>();
    labels.forEach(out::put);
    return out;
  }

  private static String duration(Duration d) {
    return DurationFormat.format(d);
  }

  private static <T> List<Object> list(List<T> items, Function<T, Object> render) {
    List<Object> out = new ArrayList<>(items.size());
    for (T item : items) {
      out.add(render.apply(item));
    }
    return out;
  }

  private static Map<String, Object> ordered(String k1, Object v1, String k2, Object v2) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(k1, v1);
    out.put(k2, v2);
    return out;
  }

  private static void putNonEmpty(Map<String, Object> out, String key, Object value) {
    boolean empty =
        (value instanceof Map<?, ?> m && m.isEmpty())
            || (value instanceof List<?> l && l.isEmpty());
    if (!empty) {
      out.put(key, value);
    }
  }

  private static void putPositive(Map<String, Object> out, String key, long value) {
    if (value > 0) {
      out.put(key, value);
    }
  }

  private static void putPath(Map<String, Object> out, String key, Path path) {
    if (path != null) {
      out.put(key, path.toString());
    }
  }
}
