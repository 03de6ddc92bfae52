package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.config.HttpClientConfig;
import io.flightdeck.config.QueueConfig;
import io.flightdeck.config.RemoteWriteConfig;
import io.flightdeck.config.TlsConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.testkit.SelfSignedCertificate;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Remote write over HTTPS to a server with a self-signed certificate made by the JDK's keytool. */
class RemoteWriteTlsTest {
  private static final QueueConfig FAST =
      new QueueConfig(
          10_000, 1, 1, 1_000, Duration.ofMillis(20), Duration.ofMillis(10), Duration.ofMillis(50));

  @TempDir Path dir;
  private SelfSignedCertificate certificate;
  private Path caPem;

  @BeforeEach
  void makeCertificate() throws Exception {
    certificate = SelfSignedCertificate.create(dir, "localhost", "ip:127.0.0.1,dns:localhost");
    caPem = certificate.caPem();
  }

  private SSLContext serverContext() throws Exception {
    return certificate.serverContext();
  }

  /** Sends one sample with {@code tls}; returns the sender after waiting up to a few seconds. */
  private RemoteWriteSender sendOne(ScriptedEndpoint endpoint, TlsConfig tls) throws Exception {
    RemoteWriteSender sender =
        new RemoteWriteSender(
            new RemoteWriteSenderOptions(
                new RemoteWriteConfig(
                    endpoint.uri(),
                    "tls",
                    Duration.ofSeconds(5),
                    Map.of(),
                    new HttpClientConfig(null, null, tls),
                    List.of(),
                    FAST),
                dir.resolve("queue-" + System.nanoTime()),
                1 << 20,
                Duration.ofMillis(100)));
    sender.start();
    Appender appender = sender.appender();
    appender.append(0, Labels.of("__name__", "over_tls"), 1000, 1);
    appender.commit();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (sender.samplesSent() == 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    return sender;
  }

  @Test
  void trustsTheServerThroughTheCaFile() throws Exception {
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint(serverContext());
        RemoteWriteSender sender = sendOne(endpoint, new TlsConfig(caPem, null, null, "", false))) {
      assertThat(sender.samplesSent()).isEqualTo(1);
      assertThat(endpoint.storage.samples()).hasSize(1);
    }
  }

  @Test
  void insecureSkipVerifyAcceptsAnUnknownCertificate() throws Exception {
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint(serverContext());
        RemoteWriteSender sender = sendOne(endpoint, new TlsConfig(null, null, null, "", true))) {
      assertThat(sender.samplesSent()).isEqualTo(1);
    }
  }

  @Test
  void anUntrustedCertificateIsRetriedAndNothingIsDelivered() throws Exception {
    try (ScriptedEndpoint endpoint = new ScriptedEndpoint(serverContext());
        RemoteWriteSender sender = sendOne(endpoint, TlsConfig.DEFAULT)) {
      assertThat(sender.samplesSent()).isZero();
      assertThat(sender.retries()).isPositive();
      assertThat(sender.pendingSamples()).isEqualTo(1);
      assertThat(endpoint.requests()).isEmpty();
    }
  }
}
