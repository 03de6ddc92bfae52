package io.flightdeck.app.cockpit;

import io.flightdeck.app.Main;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code flightdeck demo} as a user starts it, in a child JVM on 127.0.0.1 with its data in a temp
 * folder: the server beside the simulated cluster. Stopped through its own process handle.
 */
final class DemoProcess implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private final Process process;
  private final int port;
  private final Path log;

  private DemoProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts the demo at {@code speed} simulated seconds per second, its job running {@code duration}
   * (simulated, as --duration takes it), and waits until it answers.
   */
  static DemoProcess start(Path dir, double speed, String duration)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path log = dir.resolve("demo.log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx1g",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "demo",
            "--speed=" + speed,
            "--duration=" + duration,
            "--storage.tsdb.path=" + dir.resolve("demo-data"),
            "--web.listen-address=127.0.0.1:" + port);
    Process process =
        new ProcessBuilder(command)
            .directory(dir.toFile())
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    DemoProcess demo = new DemoProcess(process, port, log);
    try {
      demo.awaitReady();
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      demo.close();
      throw e;
    }
    return demo;
  }

  private void awaitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("flightdeck demo exited before it was ready\n" + log());
      }
      try {
        if (get("/-/ready").statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(100);
    }
    throw new AssertionError(
        "flightdeck demo was not ready within " + READY_TIMEOUT + "\n" + log());
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  HttpResponse<String> get(String pathAndQuery) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(uri(pathAndQuery)).timeout(Duration.ofSeconds(30)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  String log() {
    try {
      return Files.readString(log, StandardCharsets.UTF_8);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
