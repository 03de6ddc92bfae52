package io.flightdeck.config;

import io.flightdeck.model.GoQuote;
import io.flightdeck.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Decodes one entry of {@code scrape_configs}, applying the global defaults. */
final class ScrapeConfigDecoder {
  private static final Set<String> OWN =
      Set.of(
          "job_name",
          "scrape_interval",
          "scrape_timeout",
          "metrics_path",
          "scheme",
          "params",
          "honor_labels",
          "honor_timestamps",
          "sample_limit",
          "label_limit",
          "label_name_length_limit",
          "label_value_length_limit",
          "target_limit",
          "body_size_limit",
          "relabel_configs",
          "metric_relabel_configs",
          "scrape_protocols",
          "fallback_scrape_protocol",
          "enable_compression");
  private static final Set<String> FIELDS =
      union(OWN, HttpClientDecoder.FIELDS, DiscoveryDecoder.FIELDS);

  private ScrapeConfigDecoder() {}

  static ScrapeConfig decode(Node node, GlobalConfig global) {
    Node.Fields f = node.fields("config.ScrapeConfig", FIELDS);
    String job = f.get("job_name").string();
    if (job.isEmpty()) {
      throw f.get("job_name").error("job_name is empty");
    }
    Duration interval = f.get("scrape_interval").duration(global.scrapeInterval());
    Node timeoutNode = f.get("scrape_timeout");
    Duration timeout;
    if (timeoutNode.isNull()) {
      timeout = ConfigDecoder.min(global.scrapeTimeout(), interval);
    } else {
      timeout = timeoutNode.duration(null);
      if (timeout.compareTo(interval) > 0) {
        throw timeoutNode.error(
            "scrape timeout greater than scrape interval for scrape config with job name "
                + GoQuote.quote(job));
      }
    }
    Node schemeNode = f.get("scheme");
    String scheme = schemeNode.string(ScrapeConfig.DEFAULT_SCHEME);
    if (!scheme.equals("http") && !scheme.equals("https")) {
      throw schemeNode.error("scheme must be \"http\" or \"https\", got " + GoQuote.quote(scheme));
    }
    HttpClientConfig http = HttpClientDecoder.decode(f);
    List<RelabelConfig> relabel =
        RelabelDecoder.decodeAll(
            f.get("relabel_configs"), "empty or null target relabeling rule in scrape config");
    List<RelabelConfig> metricRelabel =
        RelabelDecoder.decodeAll(
            f.get("metric_relabel_configs"),
            "empty or null metric relabeling rule in scrape config");
    ServiceDiscoveryConfigs sd = DiscoveryDecoder.decode(f, relabel.isEmpty());
    String owner = "for scrape config with job name " + GoQuote.quote(job);
    List<ScrapeProtocol> protocols =
        ScrapeProtocols.decode(f.get("scrape_protocols"), global.scrapeProtocols(), owner);
    ScrapeProtocol fallback =
        ScrapeProtocols.decodeFallback(f.get("fallback_scrape_protocol"), job);
    return new ScrapeConfig(
        job,
        interval,
        timeout,
        f.get("metrics_path").string(ScrapeConfig.DEFAULT_METRICS_PATH),
        scheme,
        params(f.get("params")),
        f.get("honor_labels").bool(false),
        f.get("honor_timestamps").bool(true),
        http,
        limits(f, global.scrapeLimits()),
        sd,
        relabel,
        metricRelabel,
        protocols,
        fallback,
        f.get("enable_compression").bool(true));
  }

  /** {@code params: {name: [values]}}, as Go's url.Values. */
  private static Map<String, List<String>> params(Node node) {
    Map<String, List<String>> params = new LinkedHashMap<>();
    node.entries("url.Values").forEach((name, values) -> params.put(name, values.strings()));
    return params;
  }

  @SafeVarargs
  private static Set<String> union(Set<String>... sets) {
    Set<String> all = new HashSet<>();
    for (Set<String> s : sets) {
      all.addAll(s);
    }
    return Set.copyOf(all);
  }

  /**
   * The limit fields of a job or of {@code global}; each one absent or 0 takes {@code inherited}'s.
   */
  static ScrapeLimits limits(Node.Fields f, ScrapeLimits inherited) {
    return new ScrapeLimits(
        orInherited(f.get("sample_limit").unsigned(), inherited.sampleLimit()),
        orInherited(f.get("label_limit").unsigned(), inherited.labelLimit()),
        orInherited(f.get("label_name_length_limit").unsigned(), inherited.labelNameLengthLimit()),
        orInherited(
            f.get("label_value_length_limit").unsigned(), inherited.labelValueLengthLimit()),
        orInherited(f.get("target_limit").unsigned(), inherited.targetLimit()),
        orInherited(f.get("body_size_limit").byteSize(), inherited.bodySizeLimit()));
  }

  private static long orInherited(long own, long inherited) {
    return own == 0 ? inherited : own;
  }
}
