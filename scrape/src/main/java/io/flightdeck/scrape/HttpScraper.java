package io.flightdeck.scrape;

import io.flightdeck.config.Authorization;
import io.flightdeck.config.BasicAuth;
import io.flightdeck.config.HttpClientConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.zip.GZIPInputStream;

/**
 * Fetches one target's body over HTTP(S) like Prometheus: negotiated format, gzip, credentials, the
 * scrape timeout over the whole exchange, and the body size limit on the uncompressed body.
 * Thread-safe; one per scrape pool.
 */
final class HttpScraper {
  /** Prometheus's preference: OpenMetrics 1.0.0, OpenMetrics 0.0.1, then text 0.0.4. */
  static final String ACCEPT =
      "application/openmetrics-text;version=1.0.0;q=0.6,"
          + "application/openmetrics-text;version=0.0.1;q=0.5,"
          + "text/plain;version=0.0.4;q=0.4,*/*;q=0.3";

  static final String USER_AGENT = "Flightdeck/0.1";

  /** A fetched body, uncompressed. */
  record Response(byte[] body, String contentType) {}

  private final Function<URI, HttpClient> clients;
  private final HttpClientConfig config;
  private final long bodySizeLimit;

  /**
   * @param clients the client to fetch each target's URL with
   */
  HttpScraper(Function<URI, HttpClient> clients, HttpClientConfig config, long bodySizeLimit) {
    this.clients = clients;
    this.config = config;
    this.bodySizeLimit = bodySizeLimit;
  }

  HttpScraper(HttpClient client, HttpClientConfig config, long bodySizeLimit) {
    this(url -> client, config, bodySizeLimit);
  }

  Response fetch(URI url, Duration timeout) throws ScrapeException, InterruptedException {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(url)
            .GET()
            .timeout(timeout)
            .header("Accept", ACCEPT)
            .header("Accept-Encoding", "gzip")
            .header("User-Agent", USER_AGENT)
            .header("X-Prometheus-Scrape-Timeout-Seconds", seconds(timeout));
    String authorization = authorization();
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    CompletableFuture<HttpResponse<byte[]>> pending =
        clients
            .apply(url)
            .sendAsync(
                request.build(),
                info ->
                    new BoundedBody(
                        bodySizeLimit,
                        info.headers().firstValueAsLong("Content-Length").orElse(-1)));
    HttpResponse<byte[]> response;
    try {
      response = pending.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      pending.cancel(true);
      throw new ScrapeException("Get \"" + url + "\": context deadline exceeded");
    } catch (InterruptedException e) {
      pending.cancel(true);
      throw e;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof BoundedBody.BodyTooLargeException) {
        throw new ScrapeException(cause.getMessage());
      }
      if (cause instanceof java.net.http.HttpTimeoutException) {
        throw new ScrapeException("Get \"" + url + "\": context deadline exceeded");
      }
      throw new ScrapeException("Get \"" + url + "\": " + describe(cause), cause);
    }
    if (response.statusCode() != 200) {
      throw new ScrapeException("server returned HTTP status " + response.statusCode());
    }
    byte[] body = response.body();
    String encoding = response.headers().firstValue("Content-Encoding").orElse("");
    if (encoding.trim().equalsIgnoreCase("gzip")) {
      body = gunzip(body);
    }
    return new Response(body, response.headers().firstValue("Content-Type").orElse(""));
  }

  private byte[] gunzip(byte[] compressed) throws ScrapeException {
    long limit = bodySizeLimit <= 0 ? Long.MAX_VALUE : bodySizeLimit;
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed))) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      byte[] buffer = new byte[16384];
      for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
        if (out.size() + (long) n > limit) {
          throw new ScrapeException("body size limit exceeded");
        }
        out.write(buffer, 0, n);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new ScrapeException("gzip: " + describe(e), e);
    }
  }

  /** The Authorization header, read afresh so rotated credential files take effect. */
  private String authorization() throws ScrapeException {
    BasicAuth basic = config.basicAuth();
    if (basic != null) {
      String password =
          basic.passwordFile() != null ? readSecret(basic.passwordFile()) : basic.password();
      String pair = basic.username() + ":" + password;
      return "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8));
    }
    Authorization auth = config.authorization();
    if (auth != null) {
      String credentials =
          auth.credentialsFile() != null ? readSecret(auth.credentialsFile()) : auth.credentials();
      return auth.type() + " " + credentials;
    }
    return null;
  }

  private static String readSecret(Path file) throws ScrapeException {
    try {
      return Files.readString(file, StandardCharsets.UTF_8).strip();
    } catch (IOException e) {
      throw new ScrapeException("unable to read secret file " + file + ": " + e.getMessage(), e);
    }
  }

  private static String seconds(Duration timeout) {
    return java.math.BigDecimal.valueOf(timeout.toMillis(), 3).stripTrailingZeros().toPlainString();
  }

  private static String describe(Throwable error) {
    String message = error.getMessage();
    String kind = error.getClass().getSimpleName();
    return message == null || message.isBlank() ? kind : kind + ": " + message;
  }
}
