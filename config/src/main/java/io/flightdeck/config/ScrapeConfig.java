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
    List<RelabelConfig> metricRelabelConfigs) {
  public static final String DEFAULT_METRICS_PATH = "/metrics";
  public static final String DEFAULT_SCHEME = "http";

  public ScrapeConfig {
    params = Map.copyOf(params);
    relabelConfigs = List.copyOf(relabelConfigs);
    metricRelabelConfigs = List.copyOf(metricRelabelConfigs);
  }
}
