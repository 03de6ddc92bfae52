package io.flightdeck.config;

import java.util.Objects;

/**
 * How to authenticate and secure an HTTP client (scrapes, Alertmanagers, remote write).
 *
 * @param basicAuth null when absent
 * @param authorization null when absent; at most one of basicAuth and authorization is set
 */
public record HttpClientConfig(
    BasicAuth basicAuth, Authorization authorization, TlsConfig tlsConfig) {
  public static final HttpClientConfig DEFAULT =
      new HttpClientConfig(null, null, TlsConfig.DEFAULT);

  public HttpClientConfig {
    Objects.requireNonNull(tlsConfig, "tlsConfig");
  }
}
