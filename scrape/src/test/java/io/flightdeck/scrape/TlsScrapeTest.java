package io.flightdeck.scrape;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.testkit.ManualClock;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/** HTTPS targets with a self-signed certificate for {@code trainer.internal}, made by keytool. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TlsScrapeTest {
  private static final String PASSWORD = "changeit";

  @TempDir static Path dir;

  private HttpsServer server;
  private Path ca;

  @BeforeAll
  void start() throws Exception {
    Path store = dir.resolve("server.p12");
    ca = dir.resolve("ca.pem");
    keytool(
        "-genkeypair",
        "-alias",
        "server",
        "-keyalg",
        "EC",
        "-dname",
        "CN=trainer.internal",
        "-ext",
        "SAN=dns:trainer.internal",
        "-validity",
        "2",
        "-storetype",
        "PKCS12",
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD);
    keytool(
        "-exportcert",
        "-rfc",
        "-alias",
        "server",
        "-keystore",
        store.toString(),
        "-storepass",
        PASSWORD,
        "-file",
        ca.toString());
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, PASSWORD.toCharArray());
    }
    KeyManagerFactory factory =
        KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    factory.init(keys, PASSWORD.toCharArray());
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(factory.getKeyManagers(), null, null);
    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(new HttpsConfigurator(context));
    server.createContext(
        "/metrics",
        exchange -> {
          byte[] body = "llm_train_loss 0.5\n".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new java.util.ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
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
    HttpClient client =
        HttpClients.create(job.httpClient(), Executors.newVirtualThreadPerTaskExecutor());
    ScrapeLoop loop =
        new ScrapeLoop(
            result.target(),
            result.discovered(),
            job,
            new HttpScraper(client, job.httpClient(), 0),
            new RecordingStorage(),
            new ManualClock(1_000));
    loop.scrapeOnce();
    client.shutdownNow();
    return loop.status().lastError();
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
