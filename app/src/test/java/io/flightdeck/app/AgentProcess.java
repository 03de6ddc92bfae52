package io.flightdeck.app;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@code flightdeck agent} child process on 127.0.0.1 with its output in a log file; stopped only
 * through its own {@link Process} handle.
 */
final class AgentProcess implements AutoCloseable {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(60);

  private final Process process;
  private final int port;
  private final Path log;

  private AgentProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** Starts {@code flightdeck agent} on a free port; output goes to {@code log}. */
  static AgentProcess start(Path log, String... flags) throws IOException {
    return start(Path.of(System.getProperty("java.home"), "bin", "java"), log, flags);
  }

  /** The same, on another Java runtime. */
  static AgentProcess start(Path java, Path log, String... flags) throws IOException {
    int port = LocalPorts.free();
    List<String> args = new ArrayList<>();
    args.add("agent");
    args.add("--web.listen-address=127.0.0.1:" + port);
    args.addAll(List.of(flags));
    Process process =
        new ProcessBuilder(FlightdeckCli.command(java, args.toArray(new String[0])))
            .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new AgentProcess(process, port, log);
  }

  AgentProcess awaitReady() throws Exception {
    Await.until(
        READY_TIMEOUT,
        "the agent to be ready",
        () -> {
          if (!process.isAlive()) {
            throw new AssertionError(
                "the agent exited with code " + process.exitValue() + "\n" + log());
          }
          try {
            return TestHttp.get(uri("/-/ready")).statusCode() == 200;
          } catch (IOException e) {
            return false; // not listening yet
          }
        });
    return this;
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + port + path);
  }

  int port() {
    return port;
  }

  long pid() {
    return process.pid();
  }

  String metrics() throws IOException, InterruptedException {
    HttpResponse<String> response = TestHttp.get(uri("/metrics"));
    if (response.statusCode() != 200) {
      throw new AssertionError("/metrics answered " + response.statusCode());
    }
    return response.body();
  }

  /** SIGTERM; returns the exit code, failing if the agent does not exit in time. */
  int stop() throws IOException, InterruptedException {
    process.destroy();
    if (!process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      throw new AssertionError("the agent did not exit within " + EXIT_TIMEOUT + "\n" + log());
    }
    return process.exitValue();
  }

  String log() throws IOException {
    return "---- " + log + " ----\n" + Files.readString(log, StandardCharsets.UTF_8);
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(EXIT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
