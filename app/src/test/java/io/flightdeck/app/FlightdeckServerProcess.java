package io.flightdeck.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalDouble;
import java.util.concurrent.TimeUnit;

/**
 * A {@code flightdeck server} child process on 127.0.0.1 with its output in a log file. Stopped
 * only through its own {@link Process} handle; {@link #close()} kills it if still alive.
 */
final class FlightdeckServerProcess implements AutoCloseable {
  /** Startup includes WAL replay, which after many crashes and on a slow machine takes a while. */
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);

  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path log;

  private FlightdeckServerProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * Starts {@code flightdeck server} on a free port with the data in {@code dataDir}; output is
   * appended to {@code log}. Call {@link #awaitReady()} before sending requests.
   */
  static FlightdeckServerProcess start(Path dataDir, Path log, String... flags) throws IOException {
    return start(dataDir, log, LocalPorts.free(), flags);
  }

  /** As {@link #start(Path, Path, String...)} on a given port, for peers configured with it. */
  static FlightdeckServerProcess start(Path dataDir, Path log, int port, String... flags)
      throws IOException {
    List<String> args = new ArrayList<>();
    args.add("server");
    args.add("--web.listen-address=127.0.0.1:" + port);
    args.add("--storage.tsdb.path=" + dataDir);
    if (Arrays.stream(flags).noneMatch(f -> f.startsWith("--config.file"))) {
      // Without a config the server scrapes itself, adding series at a random moment; tests that
      // count series run with no scrape jobs unless they bring their own config.
      Path config = dataDir.resolveSibling(dataDir.getFileName() + "-no-scrapes.yml");
      Files.writeString(config, "scrape_configs: []\n");
      args.add("--config.file=" + config);
    }
    if (Arrays.stream(flags).noneMatch(f -> f.contains("-collector."))) {
      // Likewise the node's own host metrics, unless the test is about them.
      args.add("--collector.enable=false");
    }
    args.addAll(List.of(flags));
    Process process =
        new ProcessBuilder(FlightdeckCli.command(args.toArray(new String[0])))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new FlightdeckServerProcess(process, port, log);
  }

  /** Polls /-/ready until it answers 200; fails early, with the log, if the process exits. */
  FlightdeckServerProcess awaitReady() throws IOException, InterruptedException {
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      if (!process.isAlive()) {
        throw new AssertionError(
            "flightdeck exited with code "
                + process.exitValue()
                + " before it was ready\n"
                + log());
      }
      try {
        if (TestHttp.get(uri("/-/ready")).statusCode() == 200) {
          return this;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(50);
    }
    throw new AssertionError("flightdeck was not ready within " + READY_TIMEOUT + "\n" + log());
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + port + pathAndQuery);
  }

  int port() {
    return port;
  }

  /** The value of one series of /metrics, written exactly as exposed (name and labels). */
  OptionalDouble metric(String series) throws IOException, InterruptedException {
    HttpResponse<String> response = TestHttp.get(uri("/metrics"));
    if (response.statusCode() != 200) {
      throw new AssertionError("/metrics answered " + response.statusCode());
    }
    for (String line : response.body().split("\n")) {
      if (line.startsWith(series + " ")) {
        return OptionalDouble.of(Double.parseDouble(line.substring(series.length() + 1).trim()));
      }
    }
    return OptionalDouble.empty();
  }

  /** SIGKILL, as a crash would; waits until the process is gone. */
  void kill() throws InterruptedException {
    process.destroyForcibly();
    if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      throw new AssertionError("flightdeck survived SIGKILL for " + EXIT_TIMEOUT);
    }
  }

  /** SIGTERM; returns the exit code, failing if the process does not exit in time. */
  int stop() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      throw new AssertionError(
          "flightdeck did not exit within " + EXIT_TIMEOUT + " of SIGTERM\n" + log());
    }
    return process.exitValue();
  }

  /** The log so far, for failure messages. */
  String log() throws IOException {
    return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      try {
        kill();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt(); // SIGKILL is sent; only the wait was cut short
      }
    }
  }
}
