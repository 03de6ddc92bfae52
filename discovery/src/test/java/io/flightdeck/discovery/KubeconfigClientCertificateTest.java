package io.flightdeck.discovery;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsExchange;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.flightdeck.config.KubernetesSdConfig;
import io.flightdeck.config.KubernetesSdConfig.Namespaces;
import io.flightdeck.config.KubernetesSdConfig.Role;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Kubeconfig credentials against an HTTPS server on 127.0.0.1 that demands a client certificate
 * signed by the test CA and answers the pod list with one pod named after the certificate's
 * subject, so a group shows which certificate was presented. Fixtures: {@code
 * kubeconfig-tls/generate.sh}.
 */
class KubeconfigClientCertificateTest {
  private static final Path FIXTURES = fixtures();

  @TempDir Path dir;
  private HttpsServer server;
  private final AtomicInteger served = new AtomicInteger();
  private Discoverer discoverer;

  private static Path fixtures() {
    try {
      return Path.of(KubeconfigClientCertificateTest.class.getResource("/kubeconfig-tls").toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  @BeforeEach
  void startServer() throws Exception {
    KeyStore serverKeys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(FIXTURES.resolve("server.p12"))) {
      serverKeys.load(in, "changeit".toCharArray());
    }
    KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    keys.init(serverKeys, "changeit".toCharArray());
    KeyStore clientCa = KeyStore.getInstance("PKCS12");
    clientCa.load(null, null);
    try (InputStream in = Files.newInputStream(FIXTURES.resolve("ca.crt"))) {
      clientCa.setCertificateEntry(
          "ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory trust =
        TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(clientCa);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(keys.getKeyManagers(), trust.getTrustManagers(), null);

    server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setHttpsConfigurator(
        new HttpsConfigurator(tls) {
          @Override
          public void configure(HttpsParameters params) {
            var parameters = tls.getDefaultSSLParameters();
            parameters.setNeedClientAuth(true);
            params.setSSLParameters(parameters);
          }
        });
    server.createContext(
        "/api/v1/pods",
        exchange -> {
          served.incrementAndGet();
          X509Certificate client =
              (X509Certificate) ((HttpsExchange) exchange).getSSLSession().getPeerCertificates()[0];
          String name = client.getSubjectX500Principal().getName().replace("CN=", "");
          byte[] body =
              ("{\"items\":[{\"metadata\":{\"name\":\""
                      + name
                      + "\",\"namespace\":\"default\"},\"spec\":{\"containers\":[{\"name\":\"c\"}]},"
                      + "\"status\":{\"podIP\":\"10.0.0.1\"}}]}")
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().set("Content-Type", "application/json");
          exchange.sendResponseHeaders(200, body.length);
          exchange.getResponseBody().write(body);
          exchange.close();
        });
    server.start();
  }

  @AfterEach
  void stop() {
    if (discoverer != null) {
      discoverer.close();
    }
    server.stop(0);
  }

  /** Copies fixtures beside the kubeconfig, which names them relative to itself or inline. */
  private Path kubeconfig(String certificate, String key, boolean inline) throws Exception {
    StringBuilder user = new StringBuilder();
    if (certificate != null) {
      user.append(entry("client-certificate", certificate, inline));
    }
    if (key != null) {
      user.append(entry("client-key", key, inline));
    }
    Path file = dir.resolve("kubeconfig");
    Files.writeString(
        file,
        """
        apiVersion: v1
        kind: Config
        current-context: lab
        contexts:
        - name: lab
          context: {cluster: lab, user: trainer}
        clusters:
        - name: lab
          cluster:
            server: https://127.0.0.1:%d
        %s
        users:
        - name: trainer
          user:
        %s"""
            .formatted(
                server.getAddress().getPort(),
                entry("certificate-authority", "ca.crt", inline),
                user));
    return file;
  }

  private String entry(String name, String fixture, boolean inline) throws Exception {
    Path source = FIXTURES.resolve(fixture);
    if (inline) {
      return "    %s-data: %s%n"
          .formatted(name, Base64.getEncoder().encodeToString(Files.readAllBytes(source)));
    }
    Files.copy(source, dir.resolve(fixture));
    return "    %s: %s%n".formatted(name, fixture);
  }

  private BlockingQueue<List<TargetGroup>> start(Path kubeconfig) {
    discoverer =
        new KubernetesDiscoverer(
            "test",
            new KubernetesSdConfig(Role.POD, null, kubeconfig, Namespaces.ALL, List.of()),
            KubernetesFixtures.POLL);
    BlockingQueue<List<TargetGroup>> updates = new LinkedBlockingQueue<>();
    discoverer.start(updates::add);
    return updates;
  }

  @ParameterizedTest(name = "{1}, inline {2}")
  @CsvSource({
    "client-rsa.crt, client-rsa-pkcs1.key, false",
    "client-rsa.crt, client-rsa-pkcs8.key, false",
    "client-ec.crt, client-ec-sec1.key, false",
    "client-ec.crt, client-ec-pkcs8.key, false",
    "client-rsa.crt, client-rsa-pkcs1.key, true",
    "client-rsa.crt, client-rsa-pkcs8.key, true",
    "client-ec.crt, client-ec-sec1.key, true",
    "client-ec.crt, client-ec-pkcs8.key, true",
  })
  void presentsTheClientCertificate(String certificate, String key, boolean inline)
      throws Exception {
    List<TargetGroup> groups =
        DiscovererContractTest.next(start(kubeconfig(certificate, key, inline)));

    String subject = certificate.startsWith("client-rsa") ? "trainer-rsa" : "trainer-ec";
    assertThat(discoverer.lastError()).isEmpty();
    assertThat(groups).extracting(TargetGroup::source).containsExactly("pod/default/" + subject);
  }

  @Test
  void withoutAClientCertificateTheServerRefusesTheConnection() throws Exception {
    BlockingQueue<List<TargetGroup>> updates = start(kubeconfig(null, null, false));

    assertThat(DiscovererContractTest.next(updates)).isEmpty();
    // TLS 1.3 says certificate_required, TLS 1.2 bad_certificate. Under TLS 1.3 the client counts
    // the handshake done before the server has checked it, sends its request, and may meet the
    // closed connection before it reads the alert.
    assertThat(discoverer.lastError())
        .containsAnyOf("certificate_required", "bad_certificate", "received no bytes");
    assertThat(served).as("no request got past the handshake").hasValue(0);
  }

  @Test
  void aCertificateWithoutAKeyIsAnErrorNamingTheUser() throws Exception {
    Path kubeconfig = kubeconfig("client-rsa.crt", null, false);
    start(kubeconfig);

    Await.until(() -> !discoverer.lastError().isEmpty());
    assertThat(discoverer.lastError())
        .isEqualTo(kubeconfig + ": user \"trainer\" has client-certificate but no client-key");
  }

  @Test
  void anEncryptedKeyIsAnErrorNamingTheUserAndTheKeyType() throws Exception {
    Files.writeString(
        dir.resolve("encrypted.key"),
        "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIFHDBOBgkqhkiG9w0BBQ0wQTApBgkq\n"
            + "-----END ENCRYPTED PRIVATE KEY-----\n");
    Path kubeconfig = kubeconfig("client-rsa.crt", null, false);
    Files.writeString(kubeconfig, Files.readString(kubeconfig) + "    client-key: encrypted.key\n");
    start(kubeconfig);

    Await.until(() -> !discoverer.lastError().isEmpty());
    assertThat(discoverer.lastError())
        .isEqualTo(
            "kubernetes credentials: "
                + kubeconfig
                + ": user \"trainer\" client-key: unsupported PEM block \"ENCRYPTED PRIVATE KEY\";"
                + " expected an unencrypted PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY");
  }
}
