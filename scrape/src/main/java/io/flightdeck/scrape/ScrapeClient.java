package io.flightdeck.scrape;

import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.config.TlsContexts;
import java.io.IOException;
import java.net.URI;
import java.security.GeneralSecurityException;
import javax.net.ssl.SSLContext;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClientBuilder;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.client5.http.ssl.HostnameVerificationPolicy;
import org.apache.hc.client5.http.ssl.NoopHostnameVerifier;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.pool.PoolConcurrencyPolicy;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The blocking HTTP/1.1 client of one scrape pool (Apache HttpClient 5, classic API), built from
 * the job's HTTP settings: {@code follow_redirects}, {@code proxy_url}, and {@code tls_config} (CA
 * file, client certificate and PKCS#8 key (PEM), {@code server_name} to verify instead of the URL's
 * host, {@code insecure_skip_verify}). Each target keeps its keep-alive connection in a pool of its
 * own route, so finding it costs one hash lookup however many targets the job has. Thread-safe.
 */
final class ScrapeClient implements AutoCloseable {
  /** Go's limit, which Prometheus inherits. */
  private static final int MAX_REDIRECTS = 10;

  /** Prometheus's idle connection timeout: connections to targets that went away are closed. */
  private static final TimeValue IDLE_TIMEOUT = TimeValue.ofMinutes(5);

  private final CloseableHttpClient client;

  /**
   * @throws ScrapeException when the TLS settings cannot be loaded
   */
  ScrapeClient(HttpClientConfig http) throws ScrapeException {
    ConnectionConfig connections =
        ConnectionConfig.custom()
            // The scrape's own deadline aborts sooner; this bounds a connect nothing aborts.
            .setConnectTimeout(Timeout.ofSeconds(30))
            // A check costs a 1 ms blocking read per scrape; a connection the target closed while
            // idle fails fast instead, and StaleConnectionRetry sends the request again.
            .setValidateAfterInactivity(TimeValue.NEG_ONE_MILLISECOND)
            .build();
    var manager =
        PoolingHttpClientConnectionManagerBuilder.create()
            // One pool per route without a global lock; a target scrapes once at a time.
            .setPoolConcurrencyPolicy(PoolConcurrencyPolicy.LAX)
            .setMaxConnPerRoute(2)
            .setDefaultConnectionConfig(connections)
            .setTlsSocketStrategy(
                ClientTlsStrategyBuilder.create()
                    .setSslContext(sslContext(http.tlsConfig()))
                    // The JDK checks the host name during the handshake; TlsContexts' trust
                    // managers check server_name instead, or nothing with insecure_skip_verify.
                    .setHostVerificationPolicy(HostnameVerificationPolicy.BUILTIN)
                    .setHostnameVerifier(NoopHostnameVerifier.INSTANCE)
                    .buildClassic())
            .build();
    HttpClientBuilder builder =
        HttpClientBuilder.create()
            .setConnectionManager(manager)
            .setDefaultRequestConfig(
                RequestConfig.custom()
                    .setRedirectsEnabled(http.followRedirects())
                    .setMaxRedirects(MAX_REDIRECTS)
                    .build())
            .setRetryStrategy(new StaleConnectionRetry())
            .evictIdleConnections(IDLE_TIMEOUT)
            // The scraper asks for gzip and inflates under the body size limit itself.
            .disableContentCompression()
            .disableCookieManagement()
            .disableAuthCaching()
            // Connections with a client certificate stay reusable by every scrape of the pool.
            .disableConnectionState();
    if (!http.followRedirects()) {
      builder.disableRedirectHandling();
    }
    URI proxy = http.proxyUrl();
    if (proxy != null) {
      // Spoken to in plain HTTP whatever its scheme, as the JDK client did (CONNECT for https).
      builder.setProxy(new HttpHost("http", proxy.getHost(), proxyPort(proxy)));
    }
    this.client = builder.build();
  }

  /**
   * Sends {@code request} and returns the response with its body unread; the caller closes it.
   * {@link HttpGet#cancel()} from any thread aborts the exchange at whatever stage it is.
   */
  ClassicHttpResponse open(HttpGet request) throws IOException {
    return client.executeOpen(null, request, null);
  }

  /** Closes every connection, aborting exchanges still hanging. */
  @Override
  public void close() {
    client.close(CloseMode.IMMEDIATE);
  }

  private static int proxyPort(URI proxy) {
    if (proxy.getPort() != -1) {
      return proxy.getPort();
    }
    return "https".equalsIgnoreCase(proxy.getScheme()) ? 443 : 80;
  }

  private static SSLContext sslContext(TlsConfig tls) throws ScrapeException {
    try {
      return tls.equals(TlsConfig.DEFAULT) ? SSLContext.getDefault() : TlsContexts.create(tls);
    } catch (IOException | GeneralSecurityException e) {
      throw new ScrapeException("unable to build TLS config: " + e.getMessage(), e);
    }
  }
}
