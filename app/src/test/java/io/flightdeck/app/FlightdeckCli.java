package io.flightdeck.app;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs {@code flightdeck} as a child JVM from the test classpath: tests run before the jar is
 * packaged, so the classes under target/ stand in for it.
 */
final class FlightdeckCli {
  /** What a finished command printed and returned. */
  record Result(int exitCode, String stdout, String stderr) {}

  /** A cold JVM on a busy 2-core machine can take this long even for --help. */
  private static final long TIMEOUT_SECONDS = 120;

  private FlightdeckCli() {}

  /** The command line starting {@code flightdeck args...} in a new JVM. */
  static List<String> command(String... args) {
    return command(Path.of(System.getProperty("java.home"), "bin", "java"), args);
  }

  /** The same, on another Java runtime. */
  static List<String> command(Path java, String... args) {
    List<String> command = new ArrayList<>();
    command.add(java.toString());
    // Small, quick-starting JVMs: several run at once on CI's two cores.
    command.add("-Xmx512m");
    command.add("-XX:+UseSerialGC");
    command.add("-XX:TieredStopAtLevel=1");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(Main.class.getName());
    command.addAll(List.of(args));
    return command;
  }

  /** Runs to completion; fails the test if it does not finish in time. */
  static Result run(String... args) throws IOException, InterruptedException {
    Path out = Files.createTempFile("flightdeck-stdout", ".txt");
    Path err = Files.createTempFile("flightdeck-stderr", ".txt");
    try {
      Process process =
          new ProcessBuilder(command(args))
              .redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()))
              .redirectOutput(out.toFile())
              .redirectError(err.toFile())
              .start();
      if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
        throw new AssertionError(
            "flightdeck "
                + String.join(" ", args)
                + " did not finish in "
                + TIMEOUT_SECONDS
                + " s; stderr:\n"
                + Files.readString(err, StandardCharsets.UTF_8));
      }
      return new Result(
          process.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }
}
