package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code push/push_job.py}, the real prometheus_client pushing to a server. */
final class PushJobScript {
  private PushJobScript() {}

  /**
   * Runs {@code push_job.py PORT args...} with its output in a log under {@code logDir}; fails the
   * test, with that output, unless it exits 0 within a minute.
   */
  static void run(Path logDir, int port, String... args) throws Exception {
    Path script = Path.of(PushJobScript.class.getResource("/push/push_job.py").toURI());
    List<String> command = new ArrayList<>(List.of("/usr/bin/python3", script.toString()));
    command.add(Integer.toString(port));
    command.addAll(List.of(args));
    Path log = Files.createTempFile(logDir, "push-" + args[0] + "-", ".log");
    Process push =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    assertThat(push.waitFor(60, TimeUnit.SECONDS)).as("push_job.py finished in time").isTrue();
    assertThat(push.exitValue()).as(Files.readString(log)).isZero();
  }
}
