package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.config.ScrapeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The HTTP exchange of a scrape, against targets on bare sockets. */
class HttpScraperTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
  private final List<AutoCloseable> resources = new ArrayList<>();

  @TempDir Path dir;

  @AfterEach
  void close() throws Exception {
    for (AutoCloseable resource : resources.reversed()) {
      resource.close();
    }
    deadlines.shutdownNow();
  }

  private SocketTarget target(SocketTarget.Handler handler) throws IOException {
    SocketTarget target = new SocketTarget(handler);
    resources.add(target);
    return target;
  }

  /** A scraper for a job written as the lines under its {@code job_name}. */
  private HttpScraper scraper(String jobLines) throws ScrapeException {
    ScrapeConfig job = TestConfigs.job("- job_name: train\n" + jobLines.indent(2));
    ScrapeClient client = new ScrapeClient(job.httpClient());
    resources.add(client);
    return new HttpScraper(client, deadlines, job);
  }

  private static String body(HttpScraper.Response response) {
    return new String(response.body(), StandardCharsets.UTF_8);
  }

  @Test
  void oneKeepAliveConnectionServesEveryScrapeOfATarget() throws Exception {
    SocketTarget target = target((head, out) -> SocketTarget.ok(out, "gpu_up 1\n"));
    HttpScraper scraper = scraper("");

    for (int i = 0; i < 3; i++) {
      assertThat(body(scraper.fetch(URI.create(target.url()), TIMEOUT))).isEqualTo("gpu_up 1\n");
    }

    assertThat(target.connections()).isEqualTo(1);
    assertThat(target.requests().get(0))
        .startsWith("GET /metrics HTTP/1.1\r\n")
        .contains("Accept-Encoding: gzip\r\n")
        .contains("User-Agent: " + HttpScraper.USER_AGENT + "\r\n")
        .contains("X-Prometheus-Scrape-Timeout-Seconds: 10\r\n");
  }

  @Test
  void theAcceptHeadersFollowTheJobsProtocolsAndCompression() throws Exception {
    SocketTarget target = target((head, out) -> SocketTarget.ok(out, "gpu_up 1\n"));

    scraper(
            "scrape_protocols: [PrometheusText0.0.4, OpenMetricsText1.0.0]\n"
                + "enable_compression: false")
        .fetch(URI.create(target.url()), TIMEOUT);

    assertThat(target.requests().get(0))
        .contains(
            "Accept: text/plain;version=0.0.4;q=0.6,"
                + "application/openmetrics-text;version=1.0.0;q=0.5,*/*;q=0.4\r\n")
        .contains("Accept-Encoding: identity\r\n");
  }

  @Test
  void aGzippedBodyIsInflatedAndItsConnectionReused() throws Exception {
    byte[] zipped = gzip("llm_tokens_total 12345\n".repeat(1000));
    SocketTarget target =
        target(
            (head, out) -> {
              out.write(
                  ("HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: "
                          + zipped.length
                          + "\r\n\r\n")
                      .getBytes(StandardCharsets.US_ASCII));
              out.write(zipped);
              return true;
            });
    HttpScraper scraper = scraper("");

    for (int i = 0; i < 2; i++) {
      assertThat(body(scraper.fetch(URI.create(target.url()), TIMEOUT)))
          .isEqualTo("llm_tokens_total 12345\n".repeat(1000));
    }

    assertThat(target.connections()).isEqualTo(1);
  }

  @Test
  void aConnectionTheTargetClosedWhileIdleIsReplacedWithoutAFailedScrape() throws Exception {
    // Closes after each response without saying so, as a server's idle timeout does.
    SocketTarget target =
        target(
            (head, out) -> {
              SocketTarget.ok(out, "gpu_up 1\n");
              return false;
            });
    HttpScraper scraper = scraper("");
    scraper.fetch(URI.create(target.url()), TIMEOUT);
    while (target.closed() < 1) {
      Thread.sleep(5);
    }

    assertThat(body(scraper.fetch(URI.create(target.url()), TIMEOUT))).isEqualTo("gpu_up 1\n");
    assertThat(target.connections()).isEqualTo(2);
  }

  @Test
  // Each byte comes well within a read timeout; only a deadline over the exchange ends it.
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aTargetThatTricklesItsBodyFailsAtTheTimeout() throws Exception {
    SocketTarget target =
        target(
            (head, out) -> {
              out.write(
                  "HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n"
                      .getBytes(StandardCharsets.US_ASCII));
              for (int i = 0; i < 100000; i++) {
                out.write('#');
                out.flush();
                Thread.sleep(20);
              }
              return true;
            });
    HttpScraper scraper = scraper("");

    assertThatThrownBy(() -> scraper.fetch(URI.create(target.url()), Duration.ofMillis(300)))
        .isInstanceOf(ScrapeException.class)
        .hasMessage("Get \"" + target.url() + "\": context deadline exceeded");
  }

  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aTargetThatNeverAnswersDelaysNoOtherTarget() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    SocketTarget silent =
        target(
            (head, out) -> {
              asked.countDown();
              Thread.sleep(Long.MAX_VALUE);
              return false;
            });
    SocketTarget healthy = target((head, out) -> SocketTarget.ok(out, "gpu_up 1\n"));
    HttpScraper scraper = scraper("");

    CompletableFuture<String> hanging = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                scraper.fetch(URI.create(silent.url()), Duration.ofSeconds(2));
                hanging.complete("answered");
              } catch (ScrapeException e) {
                hanging.complete(e.getMessage());
              } catch (InterruptedException e) {
                hanging.completeExceptionally(e);
              }
            });
    assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();

    for (int i = 0; i < 3; i++) {
      assertThat(body(scraper.fetch(URI.create(healthy.url()), TIMEOUT))).isEqualTo("gpu_up 1\n");
    }
    assertThat(hanging).isNotDone();
    assertThat(hanging.get(30, TimeUnit.SECONDS))
        .isEqualTo("Get \"" + silent.url() + "\": context deadline exceeded");
  }

  @Test
  void anInterruptEndsAHangingScrapeWithoutAResult() throws Exception {
    CountDownLatch asked = new CountDownLatch(1);
    SocketTarget silent =
        target(
            (head, out) -> {
              asked.countDown();
              Thread.sleep(Long.MAX_VALUE);
              return false;
            });
    HttpScraper scraper = scraper("");
    CompletableFuture<Throwable> outcome = new CompletableFuture<>();
    Thread scrape =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    scraper.fetch(URI.create(silent.url()), Duration.ofMinutes(5));
                    outcome.complete(null);
                  } catch (ScrapeException | InterruptedException e) {
                    outcome.complete(e);
                  }
                });
    assertThat(asked.await(10, TimeUnit.SECONDS)).isTrue();

    scrape.interrupt();

    assertThat(outcome.get(30, TimeUnit.SECONDS)).isInstanceOf(InterruptedException.class);
  }

  @Test
  // Closing a response reads its body to the end unless the exchange is cancelled first.
  @Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void aBodyOverTheLimitIsDroppedWithoutReadingTheRest() throws Exception {
    SocketTarget target =
        target(
            (head, out) -> {
              out.write(
                  "HTTP/1.1 200 OK\r\nContent-Length: 10000000\r\n\r\n"
                      .getBytes(StandardCharsets.US_ASCII));
              out.write(new byte[200_000]);
              out.flush();
              Thread.sleep(Long.MAX_VALUE); // the rest never comes
              return false;
            });
    HttpScraper scraper = scraper("body_size_limit: 100000B");

    assertThatThrownBy(() -> scraper.fetch(URI.create(target.url()), Duration.ofMinutes(5)))
        .isInstanceOf(ScrapeException.class)
        .hasMessage("body size limit exceeded");
  }

  @Test
  void redirectsAreFollowedUnlessFollowRedirectsIsOff() throws Exception {
    SocketTarget target =
        target(
            (head, out) -> {
              if (head.startsWith("GET /old ")) {
                out.write(
                    "HTTP/1.1 302 Found\r\nLocation: /metrics\r\nContent-Length: 0\r\n\r\n"
                        .getBytes(StandardCharsets.US_ASCII));
                return true;
              }
              return SocketTarget.ok(out, "gpu_up 1\n");
            });
    URI old = URI.create(target.url().replace("/metrics", "/old"));

    assertThat(body(scraper("").fetch(old, TIMEOUT))).isEqualTo("gpu_up 1\n");
    assertThatThrownBy(() -> scraper("follow_redirects: false").fetch(old, TIMEOUT))
        .hasMessage("server returned HTTP status 302");
  }

  @Test
  void aCredentialsFileIsReadAgainOnEveryScrape() throws Exception {
    SocketTarget target = target((head, out) -> SocketTarget.ok(out, "gpu_up 1\n"));
    Path token = Files.writeString(dir.resolve("token"), "first\n");
    HttpScraper scraper = scraper("authorization:\n  credentials_file: " + token);

    scraper.fetch(URI.create(target.url()), TIMEOUT);
    Files.writeString(token, "rotated\n");
    scraper.fetch(URI.create(target.url()), TIMEOUT);

    assertThat(target.requests().get(0)).contains("Authorization: Bearer first\r\n");
    assertThat(target.requests().get(1)).contains("Authorization: Bearer rotated\r\n");
  }

  @Test
  void aRefusedConnectionNamesTheUrl() throws Exception {
    int port;
    try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = closed.getLocalPort();
    }
    URI url = URI.create("http://127.0.0.1:" + port + "/metrics");

    assertThatThrownBy(() -> scraper("").fetch(url, TIMEOUT))
        .isInstanceOf(ScrapeException.class)
        .hasMessageStartingWith("Get \"" + url + "\": ")
        .hasMessageContaining("Connection refused");
  }

  private static byte[] gzip(String text) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (OutputStream zip = new GZIPOutputStream(bytes)) {
      zip.write(text.getBytes(StandardCharsets.UTF_8));
    }
    return bytes.toByteArray();
  }
}
