package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code flightdeck promql-test}, run in-process on small scripts written to a temp folder. */
class PromqlTestCommandTest {
  @TempDir Path dir;

  record Result(int exitCode, String stdout, String stderr) {}

  private Path script(String name, String text) throws IOException {
    return Files.writeString(dir.resolve(name), text);
  }

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err)).execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void passingScriptExitsZeroWithASummary() throws IOException {
    Path ok =
        script(
            "ok.test",
            """
            load 1m
              up{job="a"} 1 1

            eval instant at 1m up
              up{job="a"} 1
            """);

    Result result = run("promql-test", ok.toString());

    assertThat(result.exitCode()).as(result.stdout()).isZero();
    assertThat(result.stdout().lines())
        .containsExactly("ok.test: 1 passed, 0 failed, 0 skipped", "1 passed, 0 failed, 0 skipped");
  }

  @Test
  void failureIsPrintedWithFileAndLineAndExitsOne() throws IOException {
    Path bad =
        script(
            "bad.test",
            """
            load 1m
              up{job="a"} 1

            eval instant at 0 up
              up{job="a"} 2
            """);

    Result result = run("promql-test", bad.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stdout().lines().toList())
        .first()
        .asString()
        .startsWith("bad.test:4: up: expected ")
        .contains("got ");
    assertThat(result.stdout()).endsWith("0 passed, 1 failed, 0 skipped" + System.lineSeparator());
  }

  @Test
  void verboseListsSkippedCommandsWithTheirReason() throws IOException {
    Path histograms =
        script(
            "h.test",
            """
            load 1m
              h {{schema:0 sum:1 count:1}}

            eval instant at 0 h
            """);

    Result quiet = run("promql-test", histograms.toString());
    Result verbose = run("promql-test", "--verbose", histograms.toString());

    assertThat(quiet.exitCode()).isZero();
    assertThat(quiet.stdout()).doesNotContain("skipped:");
    assertThat(verbose.stdout())
        .contains("h.test:4: h: skipped: reads h{}, loaded as a native histogram")
        .contains("h.test: 0 passed, 0 failed, 2 skipped");
  }

  @Test
  void brokenScriptIsReportedAndFails() throws IOException {
    Path broken = script("broken.test", "bogus command\n");

    Result result = run("promql-test", broken.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stderr()).startsWith("broken.test:1: invalid command");
  }
}
