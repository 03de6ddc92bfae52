package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import io.flightdeck.model.LabelNameSyntax;
import io.flightdeck.model.Labels;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/** Decodes the top level, {@code global}, {@code rule_files} and our own sections. */
final class ConfigDecoder {
  private static final Set<String> TOP =
      Set.of(
          "global",
          "scrape_configs",
          "rule_files",
          "alerting",
          "remote_write",
          "tensorboard",
          "notifications",
          "remote_read",
          "scrape_config_files",
          "storage",
          "tracing",
          "otlp",
          "runtime");

  /**
   * Sections of prometheus.yml that Flightdeck does not implement. Named in a clear error rather
   * than "not found": each changes what Prometheus would store or answer, so ignoring one silently
   * would make an existing config behave differently without saying so.
   */
  private static final List<String> UNSUPPORTED_PROMETHEUS_SECTIONS =
      List.of("remote_read", "scrape_config_files", "storage", "tracing", "otlp", "runtime");

  private static final Set<String> GLOBAL =
      Set.of(
          "scrape_interval",
          "scrape_timeout",
          "evaluation_interval",
          "external_labels",
          "query_log_file",
          "scrape_protocols",
          "rule_query_offset",
          "sample_limit",
          "label_limit",
          "label_name_length_limit",
          "label_value_length_limit",
          "target_limit",
          "body_size_limit");
  private static final Set<String> TENSORBOARD = Set.of("logdirs", "poll_interval");

  /** At most one {@code *}, and only in the last path element. */
  private static final Pattern RULE_PATH = Pattern.compile("[^*]*(\\*[^/]*)?");

  private ConfigDecoder() {}

  static Config decode(Node root) {
    Node.Fields f = root.fields("config.Config", TOP);
    for (String section : UNSUPPORTED_PROMETHEUS_SECTIONS) {
      if (!f.get(section).isAbsent()) {
        throw f.get(section)
            .error("the prometheus.yml section " + section + " is not supported by Flightdeck");
      }
    }
    GlobalConfig global = global(f.get("global"));
    List<ScrapeConfig> scrapes = new ArrayList<>();
    Set<String> jobs = new HashSet<>();
    for (Node item : f.get("scrape_configs").items("[]*config.ScrapeConfig")) {
      if (item.isNull()) {
        throw item.error("empty or null scrape config section");
      }
      ScrapeConfig scrape = ScrapeConfigDecoder.decode(item, global);
      if (!jobs.add(scrape.jobName())) {
        throw item.error(
            "found multiple scrape configs with job name " + GoQuote.quote(scrape.jobName()));
      }
      scrapes.add(scrape);
    }
    return new Config(
        global,
        scrapes,
        ruleFiles(f.get("rule_files")),
        AlertingDecoder.decode(f.get("alerting")),
        RemoteWriteDecoder.decodeAll(f.get("remote_write")),
        tensorboard(f.get("tensorboard")),
        notifications(f.get("notifications")));
  }

  private static GlobalConfig global(Node node) {
    Node.Fields f = node.fields("config.GlobalConfig", GLOBAL);
    Duration interval = f.get("scrape_interval").duration(GlobalConfig.DEFAULT.scrapeInterval());
    Node timeoutNode = f.get("scrape_timeout");
    Duration timeout;
    if (timeoutNode.isNull()) {
      timeout = min(GlobalConfig.DEFAULT.scrapeTimeout(), interval);
    } else {
      timeout = timeoutNode.duration(null);
      if (timeout.compareTo(interval) > 0) {
        throw timeoutNode.error("global scrape timeout greater than scrape interval");
      }
    }
    f.get("query_log_file").string(); // accepted for compatibility; Flightdeck logs no queries
    return new GlobalConfig(
        interval,
        timeout,
        f.get("evaluation_interval").duration(GlobalConfig.DEFAULT.evaluationInterval()),
        f.get("rule_query_offset").duration(Duration.ZERO),
        labels(f.get("external_labels")),
        ScrapeProtocols.decode(
            f.get("scrape_protocols"), ScrapeProtocol.DEFAULTS, "for global config"),
        ScrapeConfigDecoder.limits(f, ScrapeLimits.NONE));
  }

  /** A label set whose names must be valid; shared by static configs. */
  static Labels labels(Node node) {
    Map<String, String> map = node.stringMap();
    for (String name : map.keySet()) {
      if (!LabelNameSyntax.isLegacy(name)) {
        throw node.error(GoQuote.quote(name) + " is not a valid label name");
      }
    }
    return Labels.fromMap(map);
  }

  static Duration min(Duration a, Duration b) {
    return a.compareTo(b) <= 0 ? a : b;
  }

  private static List<Path> ruleFiles(Node node) {
    List<Path> files = new ArrayList<>();
    for (Node item : node.items("[]string")) {
      String pattern = item.string();
      if (!RULE_PATH.matcher(pattern).matches()) {
        throw item.error("invalid rule file path " + GoQuote.quote(pattern));
      }
      files.add(node.source().resolve(pattern));
    }
    return files;
  }

  private static TensorBoardConfig tensorboard(Node node) {
    Node.Fields f = node.fields("config.TensorBoardConfig", TENSORBOARD);
    List<Path> logdirs = new ArrayList<>();
    for (Node item : f.get("logdirs").items("[]string")) {
      if (item.string().isEmpty()) {
        throw item.error("logdir is empty");
      }
      logdirs.add(item.file());
    }
    Node poll = f.get("poll_interval");
    Duration interval = poll.duration(TensorBoardConfig.DEFAULT_POLL_INTERVAL);
    if (interval.isZero()) {
      throw poll.error("poll_interval must be greater than 0");
    }
    return new TensorBoardConfig(logdirs, interval);
  }

  private static Map<String, Object> notifications(Node node) {
    if (node.isNull()) {
      return Map.of();
    }
    return node.rawMapping("notifications");
  }
}
