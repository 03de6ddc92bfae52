package io.flightdeck.scrape;

import io.flightdeck.config.Authorization;
import io.flightdeck.config.BasicAuth;
import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.config.ScrapeProtocol;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpEntity;

/**
 * Fetches one target's body over HTTP(S) like Prometheus: the job's {@code scrape_protocols}
 * offered in the Accept header, gzip unless {@code enable_compression} is off, credentials, the
 * scrape timeout over the whole exchange, and the body size limit on the uncompressed body. The
 * exchange blocks the calling thread (a virtual one in production): connection, request, status and
 * body in one pass, with no handoff to another thread. Thread-safe; one per scrape pool.
 */
final class HttpScraper {
  static final String USER_AGENT = "Flightdeck/0.1";

  /** A fetched body, uncompressed. */
  record Response(byte[] body, String contentType) {}

  private final ScrapeClient client;
  private final ScheduledExecutorService deadlines;
  private final HttpClientConfig config;
  private final long bodySizeLimit;
  private final String accept;
  private final String acceptEncoding;

  /**
   * @param deadlines runs the abort of an exchange that outlives its timeout
   */
  HttpScraper(ScrapeClient client, ScheduledExecutorService deadlines, ScrapeConfig job) {
    this.client = client;
    this.deadlines = deadlines;
    this.config = job.httpClient();
    this.bodySizeLimit = job.limits().bodySizeLimit();
    this.accept = ScrapeProtocol.acceptHeader(job.scrapeProtocols());
    this.acceptEncoding = job.enableCompression() ? "gzip" : "identity";
  }

  /**
   * @throws InterruptedException when the thread is interrupted, or the deadline scheduler has shut
   *     down (both mean scraping stops)
   */
  Response fetch(URI url, Duration timeout) throws ScrapeException, InterruptedException {
    HttpGet request = new HttpGet(url);
    request.setHeader("Accept", accept);
    request.setHeader("Accept-Encoding", acceptEncoding);
    request.setHeader("User-Agent", USER_AGENT);
    request.setHeader("X-Prometheus-Scrape-Timeout-Seconds", seconds(timeout));
    String authorization = authorization();
    if (authorization != null) {
      request.setHeader("Authorization", authorization);
    }
    ScheduledFuture<?> deadline;
    try {
      // Cancelling closes the connection, so a read that blocks or trickles ends at the deadline.
      deadline = deadlines.schedule(request::cancel, timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (RejectedExecutionException e) {
      throw new InterruptedException("scraping stopped");
    }
    try (ClassicHttpResponse response = client.open(request)) {
      boolean read = false;
      try {
        int status = response.getCode();
        if (status != 200) {
          throw new ScrapeException("server returned HTTP status " + status);
        }
        Response fetched = new Response(body(response), headerValue(response, "Content-Type"));
        read = true;
        return fetched;
      } finally {
        if (!read) {
          // Closing the response would read the rest of its body; cancelling drops the connection.
          request.cancel();
        }
      }
    } catch (BoundedBody.BodyTooLargeException e) {
      throw new ScrapeException(e.getMessage());
    } catch (IOException | IllegalStateException e) {
      if (Thread.interrupted()) {
        throw new InterruptedException("interrupted while scraping " + url);
      }
      if (request.isCancelled()) {
        throw new ScrapeException("Get \"" + url + "\": context deadline exceeded");
      }
      throw new ScrapeException("Get \"" + url + "\": " + describe(e), e);
    } finally {
      deadline.cancel(false);
    }
  }

  /** The whole body, inflated when gzipped; the limit applies to the inflated bytes. */
  private byte[] body(ClassicHttpResponse response)
      throws IOException, BoundedBody.BodyTooLargeException, ScrapeException {
    HttpEntity entity = response.getEntity();
    if (entity == null) {
      return new byte[0];
    }
    InputStream in = entity.getContent();
    if (!headerValue(response, "Content-Encoding").trim().equalsIgnoreCase("gzip")) {
      return BoundedBody.read(in, bodySizeLimit, entity.getContentLength());
    }
    try {
      return BoundedBody.read(new GZIPInputStream(in, 8192), bodySizeLimit, -1);
    } catch (ZipException | EOFException e) {
      throw new ScrapeException("gzip: " + describe(e), e);
    }
  }

  private static String headerValue(ClassicHttpResponse response, String name) {
    Header header = response.getFirstHeader(name);
    return header == null ? "" : header.getValue();
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
