package io.flightdeck.config;

import io.flightdeck.model.relabel.RelabelConfig;
import java.time.Duration;
import java.util.List;

/**
 * A set of Alertmanagers that receive alerts through API {@code apiVersion} (only v2).
 *
 * @param relabelConfigs applied to the discovered Alertmanager targets
 */
public record AlertmanagerConfig(
    ServiceDiscoveryConfigs serviceDiscovery,
    HttpClientConfig httpClient,
    String scheme,
    String pathPrefix,
    Duration timeout,
    String apiVersion,
    List<RelabelConfig> relabelConfigs) {
  public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(10);
  public static final String API_V2 = "v2";

  public AlertmanagerConfig {
    relabelConfigs = List.copyOf(relabelConfigs);
  }
}
