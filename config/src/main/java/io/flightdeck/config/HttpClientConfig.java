package io.flightdeck.config;

import java.net.InetSocketAddress;
import java.net.ProxySelector;
import java.net.URI;
import java.net.http.HttpClient;
import java.util.Objects;

/**
 * How to authenticate, secure and route an HTTP client (scrapes, Alertmanagers, remote write).
 *
 * @param basicAuth null when absent
 * @param authorization null when absent; at most one of basicAuth and authorization is set (the
 *     legacy {@code bearer_token} and {@code bearer_token_file} become a Bearer authorization)
 * @param followRedirects {@code follow_redirects}, default true
 * @param proxyUrl {@code proxy_url}, or null to connect directly
 */
public record HttpClientConfig(
    BasicAuth basicAuth,
    Authorization authorization,
    TlsConfig tlsConfig,
    boolean followRedirects,
    URI proxyUrl) {
  public static final HttpClientConfig DEFAULT =
      new HttpClientConfig(null, null, TlsConfig.DEFAULT);

  public HttpClientConfig {
    Objects.requireNonNull(tlsConfig, "tlsConfig");
  }

  /** Credentials and TLS only, with Prometheus's defaults for the rest. */
  public HttpClientConfig(BasicAuth basicAuth, Authorization authorization, TlsConfig tlsConfig) {
    this(basicAuth, authorization, tlsConfig, true, null);
  }

  /** Sets the redirect policy and proxy of {@code builder} (TLS is {@link TlsContexts}' job). */
  public HttpClient.Builder applyTo(HttpClient.Builder builder) {
    builder.followRedirects(
        followRedirects ? HttpClient.Redirect.NORMAL : HttpClient.Redirect.NEVER);
    if (proxyUrl != null) {
      int port = proxyUrl.getPort() != -1 ? proxyUrl.getPort() : defaultPort(proxyUrl);
      builder.proxy(ProxySelector.of(new InetSocketAddress(proxyUrl.getHost(), port)));
    }
    return builder;
  }

  private static int defaultPort(URI url) {
    return "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
  }
}
