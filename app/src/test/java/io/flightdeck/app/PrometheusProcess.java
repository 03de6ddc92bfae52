package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus as a child process on 127.0.0.1, scraping itself every second and
 * remote-writing to a given URL. Stopped only through its own {@link Process} handle.
 */
final class PrometheusProcess implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/bin/prometheus");

  /** Fails the calling test, naming the package, when Prometheus is missing: never a skip. */
  static void requireInstalled() {
    if (!java.nio.file.Files.isExecutable(BINARY)) {
      throw new AssertionError(
          "Prometheus is not installed at "
              + BINARY
              + ": install Debian's prometheus package (./run-tests does as root)");
    }
  }

  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final int port;
  private final Path log;

  private PrometheusProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts Prometheus with its config, data and log under {@code dir}. */
  static PrometheusProcess start(Path dir, URI remoteWrite) throws IOException {
    int port = LocalPorts.free();
    Files.createDirectories(dir);
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(
        config,
        """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        scrape_configs:
          - job_name: prometheus
            static_configs:
              - targets: ['127.0.0.1:%d']
        remote_write:
          - url: %s
            queue_config:
              batch_send_deadline: 1s
              min_backoff: 100ms
              max_backoff: 1s
        """
            .formatted(port, remoteWrite));
    Path log = dir.resolve("prometheus.log");
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.listen-address=127.0.0.1:" + port)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new PrometheusProcess(process, port, log);
  }

  /**
   * Starts Prometheus as a remote-write receiver ({@code /api/v1/write}) that scrapes nothing, so
   * it holds exactly what a test writes into it.
   */
  static PrometheusProcess startReceiver(Path dir) throws IOException {
    int port = LocalPorts.free();
    Files.createDirectories(dir);
    Path config = dir.resolve("prometheus.yml");
    Files.writeString(config, "global:\n  evaluation_interval: 1m\n");
    Path log = dir.resolve("prometheus.log");
    Process process =
        new ProcessBuilder(
                BINARY.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + dir.resolve("data"),
                "--web.enable-remote-write-receiver",
                "--web.listen-address=127.0.0.1:" + port)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    return new PrometheusProcess(process, port, log);
  }

  /** The {@code instance} label Prometheus gives its own scrapes. */
  String instance() {
    return "127.0.0.1:" + port;
  }

  void awaitReady() throws Exception {
    Await.until(
        READY_TIMEOUT,
        "Prometheus to be ready",
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError(
                "Prometheus exited with code " + process.exitValue() + "\n" + log());
          }
          try {
            return TestHttp.get(uri("/-/ready")).statusCode() == 200;
          } catch (IOException e) {
            return false; // not listening yet
          }
        });
  }

  /** The {@code data.result} array of an instant query through Prometheus's HTTP API. */
  JsonNode query(String promql) throws IOException, InterruptedException {
    HttpResponse<String> response =
        TestHttp.get(
            uri("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8)));
    JsonNode body = JSON.readTree(response.body());
    if (response.statusCode() != 200 || !body.path("status").asText().equals("success")) {
      throw new AssertionError("query " + promql + " failed: " + response.body());
    }
    return body.path("data").path("result");
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  String log() throws IOException {
    return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
  }

  /** SIGTERM, then SIGKILL if Prometheus does not exit in time. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      process.destroyForcibly(); // never leave it running behind an interrupted test
      Thread.currentThread().interrupt();
    }
  }
}
