package io.flightdeck.collector.host;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.ParsedSample;
import io.flightdeck.model.Labels;
import java.io.IOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A real node_exporter on 127.0.0.1, restricted to the collectors we reproduce and told to use our
 * defaults where its Debian build differs: /proc/net/dev instead of netlink, no interface excluded,
 * upstream's current disk exclusion. Stopped by PID in {@link #close()}.
 */
final class NodeExporterProcess implements AutoCloseable {
  static final Path BINARY = Path.of("/usr/bin/prometheus-node-exporter");

  private static final Duration STARTUP = Duration.ofSeconds(15);

  private final long pid;
  private final URI metrics;
  private final HttpClient http = HttpClient.newHttpClient();

  private NodeExporterProcess(long pid, URI metrics) {
    this.pid = pid;
    this.metrics = metrics;
  }

  /** Fails the calling test, naming the package, when node_exporter is missing: never a skip. */
  static void requireInstalled() {
    if (!Files.isExecutable(BINARY)) {
      throw new AssertionError(
          "node_exporter is not installed at "
              + BINARY
              + ": install Debian's prometheus-node-exporter (./run-tests does as root)");
    }
  }

  /** Starts node_exporter with {@code extraFlags} added and waits until it answers. */
  static NodeExporterProcess start(Path log, String... extraFlags) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    List<String> command = new ArrayList<>();
    command.addAll(
        List.of(
            BINARY.toString(),
            "--web.listen-address=127.0.0.1:" + port,
            "--collector.disable-defaults",
            "--collector.cpu",
            "--collector.loadavg",
            "--collector.meminfo",
            "--collector.netdev",
            "--collector.diskstats",
            "--no-collector.netdev.netlink",
            "--collector.netdev.device-exclude=^$",
            "--collector.diskstats.device-exclude="
                + "^(z?ram|loop|fd|(h|s|v|xv)d[a-z]|nvme\\d+n\\d+p)\\d+$"));
    command.addAll(List.of(extraFlags));
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    NodeExporterProcess exporter =
        new NodeExporterProcess(process.pid(), URI.create("http://127.0.0.1:" + port + "/metrics"));
    try {
      exporter.awaitReady(process);
    } catch (Exception e) {
      exporter.close();
      throw e;
    }
    return exporter;
  }

  /** One scrape, as series (with {@code __name__}) to value. */
  Map<Labels, Double> scrape() throws Exception {
    HttpResponse<byte[]> response =
        http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofByteArray());
    if (response.statusCode() != 200) {
      throw new IOException("node_exporter answered " + response.statusCode());
    }
    Map<Labels, Double> series = new HashMap<>();
    for (ParsedSample sample :
        ExpositionParser.parseAll(
            ExpositionFormat.TEXT_0_0_4, response.body(), ParseOptions.defaults())) {
      series.put(sample.labels(), sample.value());
    }
    return series;
  }

  private void awaitReady(Process process) throws Exception {
    long deadline = System.nanoTime() + STARTUP.toNanos();
    while (true) {
      try {
        http.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.discarding());
        return;
      } catch (ConnectException e) {
        if (!process.isAlive() || System.nanoTime() > deadline) {
          throw new IOException("node_exporter did not start; see its log", e);
        }
        // Polling an external process: there is no event to wait on.
        Thread.sleep(50);
      }
    }
  }

  @Override
  public void close() throws InterruptedException {
    Optional<ProcessHandle> handle = ProcessHandle.of(pid);
    if (handle.isEmpty()) {
      return;
    }
    handle.get().destroy();
    try {
      handle.get().onExit().get(5, TimeUnit.SECONDS);
    } catch (Exception e) {
      handle.get().destroyForcibly();
    }
  }
}
