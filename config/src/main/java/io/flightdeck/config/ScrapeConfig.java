package io.flightdeck.config;

import io.flightdeck.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One scrape job, with the global defaults already applied: {@code scrapeInterval} and {@code
 * scrapeTimeout} are always set and the timeout never exceeds the interval.
 *
 * @param params query parameters sent with every scrape
 * @param scrapeProtocols the formats offered in the Accept header, preferred first
 * @param fallbackScrapeProtocol how to read a body without a usable Content-Type; null: as
 *     Prometheus text 0.0.4, as Prometheus 2 did
 * @param enableCompression whether gzip is offered in Accept-Encoding
 */
public record ScrapeConfig(
    String jobName,
    Duration scrapeInterval,
    Duration scrapeTimeout,
    String metricsPath,
    String scheme,
    Map<String, List<String>> params,
    boolean honorLabels,
    boolean honorTimestamps,
    HttpClientConfig httpClient,
    ScrapeLimits limits,
    ServiceDiscoveryConfigs serviceDiscovery,
    List<RelabelConfig> relabelConfigs,
    List<RelabelConfig> metricRelabelConfigs,
    List<ScrapeProtocol> scrapeProtocols,
    ScrapeProtocol fallbackScrapeProtocol,
    boolean enableCompression) {
  public static final String DEFAULT_METRICS_PATH = "/metrics";
  public static final String DEFAULT_SCHEME = "http";

  public ScrapeConfig {
    params = Map.copyOf(params);
    relabelConfigs = List.copyOf(relabelConfigs);
    metricRelabelConfigs = List.copyOf(metricRelabelConfigs);
    scrapeProtocols = List.copyOf(scrapeProtocols);
  }
}
