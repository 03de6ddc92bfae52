package io.flightdeck.config;

import io.flightdeck.model.relabel.RelabelConfig;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One remote-write endpoint.
 *
 * @param name empty when absent; unique among named endpoints
 * @param headers extra HTTP headers; never authorization or the protocol's own headers
 */
public record RemoteWriteConfig(
    URI url,
    String name,
    Duration remoteTimeout,
    Map<String, String> headers,
    HttpClientConfig httpClient,
    List<RelabelConfig> writeRelabelConfigs,
    QueueConfig queueConfig) {
  public static final Duration DEFAULT_REMOTE_TIMEOUT = Duration.ofSeconds(30);

  public RemoteWriteConfig {
    headers = Map.copyOf(headers);
    writeRelabelConfigs = List.copyOf(writeRelabelConfigs);
  }
}
