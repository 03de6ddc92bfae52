package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.testkit.SelfSignedCertificate;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS targets with a self-signed certificate for {@code trainer.internal}, made by keytool. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsScrapeTest {
  @TempDir static Path dir;

  private HttpsServer server;
  private Path ca;

  @BeforeAll
  void start() throws Exception {
    SelfSignedCertificate certificate =
        SelfSignedCertificate.create(dir, "trainer.internal", "dns:trainer.internal");
    ca = certificate.caPem();
    SSLContext context = certificate.serverContext();
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.createContext(
        "/metrics",
        exchange -> {
          byte[] body = "llm_train_loss 0.5\n".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", TargetServer.TEXT);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  @AfterAll
  void stop() {
    server.stop(0);
  }

  /** Scrapes once with the given {@code tls_config} lines; returns the last error. */
  private String scrape(String tlsYaml) throws Exception {
    ScrapeConfig job = TestConfigs.job("- job_name: train\n  scheme: https\n" + tlsYaml.indent(2));
    TargetBuilder.Result result =
        TargetBuilder.build(
            Labels.of("__address__", "127.0.0.1:" + server.getAddress().getPort()),
            Labels.EMPTY,
            job);
    ScheduledExecutorService deadlines = Executors.newSingleThreadScheduledExecutor();
    try (ScrapeClient client = new ScrapeClient(job.httpClient())) {
      ScrapeLoop loop =
          new ScrapeLoop(
              result.target(),
              result.discovered(),
              job,
              new HttpScraper(client, deadlines, job),
              new RecordingStorage(),
              new ManualClock(1_000));
      loop.scrapeOnce();
      return loop.status().lastError();
    } finally {
      deadlines.shutdownNow();
    }
  }

  @Test
  void aTrustedCaAndTheCertificatesServerNameSucceed() throws Exception {
    assertThat(scrape("tls_config:\n  ca_file: " + ca + "\n  server_name: trainer.internal\n"))
        .isEmpty();
  }

  @Test
  void theUrlsHostMustMatchTheCertificateWithoutServerName() throws Exception {
    assertThat(scrape("tls_config:\n  ca_file: " + ca + "\n"))
        .contains("No subject alternative names matching IP address 127.0.0.1");
  }

  @Test
  void aWrongServerNameFails() throws Exception {
    assertThat(scrape("tls_config:\n  ca_file: " + ca + "\n  server_name: other.internal\n"))
        .endsWith("certificate is not valid for other.internal");
  }

  @Test
  void anUnknownCaFailsUnlessVerificationIsSkipped() throws Exception {
    assertThat(scrape("")).contains("PKIX path building failed");
    assertThat(scrape("tls_config:\n  insecure_skip_verify: true\n")).isEmpty();
  }
}
