package io.flightdeck.app.cockpit;

import com.sun.net.httpserver.HttpServer;
import io.flightdeck.app.Main;
import io.flightdeck.testkit.RealAlertmanager;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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
 * A {@code flightdeck server} child JVM on 127.0.0.1 serving the cockpit from the class path (as
 * the jar does), holding the {@link TrainingFleet} and a watched {@link TensorBoardRun}, with alert
 * rules that fire on the fleet's hot GPU and XID. Stopped through its own process handle.
 */
final class CockpitServer implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  private static final String RULES =
      """
      groups:
      - name: gpu_cluster_alerts
        rules:
        - alert: GPUTemperatureHigh
          expr: DCGM_FI_DEV_GPU_TEMP > 82
          labels: {severity: warning}
          annotations:
            summary: "GPU {{ $labels.gpu }} on {{ $labels.Hostname }} is at {{ $value }}°C"
        - alert: GPUXIDCriticalError
          expr: DCGM_FI_DEV_XID_ERRORS > 0
          labels: {severity: critical}
          annotations:
            summary: "XID {{ $value }} on {{ $labels.Hostname }} GPU {{ $labels.gpu }}"
        - alert: GPUSMLowUtilization
          expr: avg_over_time(DCGM_FI_DEV_GPU_UTIL[10m]) < 15
          for: 15m
          labels: {severity: warning}
      """;

  private final Process process;
  private final int port;
  private final Path log;

  private final HttpServer webhook;
  private final RealAlertmanager alertmanager;

  private CockpitServer(
      Process process, int port, Path log, HttpServer webhook, RealAlertmanager alertmanager) {
    this.process = process;
    this.port = port;
    this.log = log;
    this.webhook = webhook;
    this.alertmanager = alertmanager;
  }

  /** A team chat's webhook on 127.0.0.1 that accepts every notification, for the delivery log. */
  private static HttpServer chatWebhook() throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 8);
    server.createContext(
        "/hook",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.sendResponseHeaders(200, -1);
          exchange.close();
        });
    server.start();
    return server;
  }

  /** Starts the server in {@code dir}, waits until it is ready and loads the fleet into it. */
  static CockpitServer start(Path dir) throws IOException, InterruptedException {
    int port = freePort();
    HttpServer webhook = chatWebhook();
    // Alerts go to a real Alertmanager too, which keeps the silences the alerts page makes.
    RealAlertmanager alertmanager =
        RealAlertmanager.start(
            Files.createDirectories(dir.resolve("alertmanager")),
            "route: {receiver: nowhere}\nreceivers: [{name: nowhere}]\n");
    long now = System.currentTimeMillis();
    Path logdir = Files.createDirectories(dir.resolve("tensorboard"));
    TensorBoardRun.write(logdir, now / 1000.0);
    Files.writeString(dir.resolve("rules.yml"), RULES);
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(
        config,
        """
        global: {scrape_interval: 5s, evaluation_interval: 2s}
        scrape_configs:
          - job_name: flightdeck
            static_configs: [{targets: ['127.0.0.1:%d']}]
        rule_files: [%s]
        alerting:
          alertmanagers: [{static_configs: [{targets: ['127.0.0.1:%d']}]}]
        notifications:
          route: {receiver: team-chat, group_by: [alertname], group_wait: 1s}
          receivers:
            - name: team-chat
              webhook_configs: [{url: 'http://127.0.0.1:%d/hook'}]
        """
            .formatted(
                port,
                dir.resolve("rules.yml"),
                alertmanager.port(),
                webhook.getAddress().getPort()));
    Path log = dir.resolve("server.log");
    List<String> command =
        List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx768m",
            "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            System.getProperty("java.class.path"),
            Main.class.getName(),
            "server",
            "--web.listen-address=127.0.0.1:" + port,
            "--storage.tsdb.path=" + dir.resolve("data"),
            "--config.file=" + config,
            "--collector.enable=false",
            "--tensorboard.logdir=" + logdir);
    Process process =
        new ProcessBuilder(command)
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    CockpitServer server = new CockpitServer(process, port, log, webhook, alertmanager);
    try {
      server.awaitReady();
      server.importText(new TrainingFleet(now).text());
    } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
      server.close();
      throw e;
    }
    return server;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  private void awaitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError("flightdeck exited before it was ready\n" + log());
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
    throw new AssertionError("flightdeck was not ready within " + READY_TIMEOUT + "\n" + log());
  }

  private void importText(String text) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(uri("/api/v1/import/prometheus"))
                .POST(HttpRequest.BodyPublishers.ofString(text))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw new AssertionError(
          "import answered " + response.statusCode() + ": " + response.body() + "\n" + log());
    }
  }

  /**
   * Waits (bounded) until {@code path} answers with {@code text} in its body: the self-scrape
   * target up, an alert firing, a notification delivered.
   */
  void awaitAnswer(String path, String text) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(40).toNanos();
    while (!get(path).body().contains(text)) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError(path + " never answered with " + text + "\n" + log());
      }
      Thread.sleep(200);
    }
  }

  HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return HTTP.send(
        HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  /** The Alertmanager that the server's alerts go to. */
  RealAlertmanager alertmanager() {
    return alertmanager;
  }

  String log() throws IOException {
    return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
  }

  @Override
  public void close() throws InterruptedException {
    webhook.stop(0);
    alertmanager.close();
    process.destroy();
    if (!process.waitFor(30, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }
}
