package io.flightdeck.notify;

import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.config.TlsContexts;
import io.flightdeck.discovery.Discoverer;
import io.flightdeck.discovery.Discoverers;
import io.flightdeck.discovery.TargetGroup;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Alertmanagers of one entry of {@code alerting.alertmanagers}: found by its service discovery
 * (static, file, HTTP or Kubernetes, as for scrape targets), relabelled, and reached through the
 * HTTP client its {@code tls_config} asks for. Discovery starts at construction, so static
 * Alertmanagers are known at once; {@link #close} stops it. Thread-safe.
 */
final class AlertmanagerSet implements AutoCloseable {
  private final AlertmanagerConfig config;
  private final HttpPoster poster;
  private final List<Discoverer> discoverers;
  private final Map<Integer, List<TargetGroup>> groupsByDiscoverer = new ConcurrentHashMap<>();
  private volatile AlertmanagerEndpoint.Resolution current =
      new AlertmanagerEndpoint.Resolution(List.of(), List.of());

  /**
   * @param index the entry's position in {@code alerting.alertmanagers}, for error messages and
   *     thread names
   * @param plainClient the client used when the entry has no TLS settings
   * @throws NotificationsConfigException when the TLS files cannot be read
   */
  AlertmanagerSet(int index, AlertmanagerConfig config, HttpClient plainClient) {
    this.config = config;
    this.poster = new HttpPoster(client(index, config, plainClient), config.timeout());
    this.discoverers = Discoverers.create("alertmanagers-" + index, config.serviceDiscovery());
    for (int i = 0; i < discoverers.size(); i++) {
      int source = i;
      discoverers.get(i).start(groups -> update(source, groups));
    }
  }

  private static HttpClient client(int index, AlertmanagerConfig config, HttpClient plainClient) {
    HttpClientConfig http = config.httpClient();
    TlsConfig tls = http.tlsConfig();
    if (tls.equals(TlsConfig.DEFAULT) && http.followRedirects() && http.proxyUrl() == null) {
      return plainClient;
    }
    try {
      HttpClient.Builder builder =
          http.applyTo(HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)));
      if (!tls.equals(TlsConfig.DEFAULT)) {
        builder.sslContext(TlsContexts.create(tls));
      }
      return builder.build();
    } catch (IOException | GeneralSecurityException e) {
      throw new NotificationsConfigException(
          "alerting.alertmanagers[" + index + "].tls_config",
          "unable to build TLS config: " + e.getMessage());
    }
  }

  private synchronized void update(int source, List<TargetGroup> groups) {
    groupsByDiscoverer.put(source, groups);
    List<TargetGroup> all = new ArrayList<>();
    for (int i = 0; i < discoverers.size(); i++) {
      all.addAll(groupsByDiscoverer.getOrDefault(i, List.of()));
    }
    current = AlertmanagerEndpoint.resolve(config, all);
  }

  List<AlertmanagerEndpoint> active() {
    return current.active();
  }

  List<URI> dropped() {
    return current.dropped();
  }

  HttpPoster poster() {
    return poster;
  }

  @Override
  public void close() {
    for (Discoverer d : discoverers) {
      d.close();
    }
  }
}
