package io.flightdeck.app;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A single-node VictoriaMetrics (Debian {@code victoria-metrics}) on 127.0.0.1 with its data and
 * log under a directory; it can be stopped and started again on the same port and data.
 */
final class VictoriaMetricsProcess implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/bin/victoria-metrics");

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path log;

  private VictoriaMetricsProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static VictoriaMetricsProcess start(Path dir, int port) throws IOException {
    Files.createDirectories(dir);
    Path log = dir.resolve("victoria-metrics.log");
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "-storageDataPath=" + dir.resolve("data"),
                "-httpListenAddr=127.0.0.1:" + port,
                "-retentionPeriod=10y")
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new VictoriaMetricsProcess(process, port, log);
  }

  VictoriaMetricsProcess awaitReady() throws Exception {
    Await.until(
        READY_TIMEOUT,
        "VictoriaMetrics to be ready",
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError(
                "VictoriaMetrics exited with code " + process.exitValue() + "\n" + log());
          }
          try {
            return TestHttp.get(uri("/health")).statusCode() == 200;
          } catch (IOException e) {
            return false; // not listening yet
          }
        });
    return this;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  String log() throws IOException {
    return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
  }

  /** SIGTERM, then SIGKILL if it does not exit in time; waits until it is gone. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
