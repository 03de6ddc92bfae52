package io.flightdeck.testkit;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A real Alertmanager (Debian's {@code prometheus-alertmanager}) on a free port of 127.0.0.1, with
 * no cluster peer, started with the given configuration and stopped through its own process handle.
 * Missing, it fails the test with the command that installs it.
 */
public final class RealAlertmanager implements AutoCloseable {
  public static final Path BINARY = Path.of("/usr/bin/prometheus-alertmanager");
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  private final Process process;
  private final int port;

  private RealAlertmanager(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts one in {@code dir} with {@code configYaml} and waits until it is ready. */
  public static RealAlertmanager start(Path dir, String configYaml)
      throws IOException, InterruptedException {
    if (!Files.isExecutable(BINARY)) {
      throw new IllegalStateException(
          BINARY + " is missing: install it with apt-get install -y prometheus-alertmanager");
    }
    Path config = dir.resolve("alertmanager.yml");
    Files.writeString(config, configYaml);
    Path log = dir.resolve("alertmanager.log");
    int port = freePort();
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + config,
                "--storage.path=" + Files.createDirectories(dir.resolve("alertmanager-data")),
                "--web.listen-address=127.0.0.1:" + port,
                "--cluster.listen-address=")
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    RealAlertmanager alertmanager = new RealAlertmanager(process, port);
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (!alertmanager.ready()) {
      if (!process.isAlive() || System.nanoTime() > deadline) {
        alertmanager.close();
        throw new IllegalStateException(
            "alertmanager did not become ready: " + Files.readString(log));
      }
      Thread.sleep(100);
    }
    return alertmanager;
  }

  public int port() {
    return port;
  }

  /** {@code http://127.0.0.1:<port>} followed by {@code path}. */
  public URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  private boolean ready() {
    try {
      return HTTP.send(
                  HttpRequest.newBuilder(uri("/-/ready")).build(),
                  HttpResponse.BodyHandlers.discarding())
              .statusCode()
          == 200;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    process.waitFor();
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 0, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
