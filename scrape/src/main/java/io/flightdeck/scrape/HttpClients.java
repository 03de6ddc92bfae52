package io.flightdeck.scrape;

import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.config.TlsContexts;
import java.io.IOException;
import java.net.http.HttpClient;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * Builds the HTTP client of a scrape pool from its HTTP settings: {@code follow_redirects}, {@code
 * proxy_url}, and {@code tls_config} (CA file, client certificate and PKCS#8 key (PEM), {@code
 * server_name} to verify instead of the URL's host, {@code insecure_skip_verify}).
 */
final class HttpClients {
  private HttpClients() {}

  static HttpClient create(HttpClientConfig http, Executor executor) throws ScrapeException {
    TlsConfig tls = http.tlsConfig();
    HttpClient.Builder builder =
        http.applyTo(
            HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(30))
                .executor(executor));
    if (!tls.equals(TlsConfig.DEFAULT)) {
      builder.sslContext(sslContext(tls));
    }
    return builder.build();
  }

  private static SSLContext sslContext(TlsConfig tls) throws ScrapeException {
    try {
      return TlsContexts.create(tls);
    } catch (IOException | GeneralSecurityException e) {
      throw new ScrapeException("unable to build TLS config: " + e.getMessage(), e);
    }
  }
}
