package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class CheckMetricsCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int check(String body, String... args) {
    CheckMetricsCommand command =
        new CheckMetricsCommand(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)));
    return new CommandLine(command)
        .setOut(new PrintWriter(out))
        .setErr(new PrintWriter(err))
        .execute(args);
  }

  @Test
  void aCleanBodyPrintsNothingAndExitsZero() {
    int exit =
        check(
            """
            # HELP train_loss Training loss.
            # TYPE train_loss gauge
            train_loss 0.5
            # HELP train_steps_total Optimizer steps.
            # TYPE train_steps_total counter
            train_steps_total 10
            # HELP step_duration_seconds Step time.
            # TYPE step_duration_seconds histogram
            step_duration_seconds_bucket{le="1"} 3
            step_duration_seconds_bucket{le="+Inf"} 4
            step_duration_seconds_sum 2.5
            step_duration_seconds_count 4
            """);

    assertThat(exit).as(err.toString()).isZero();
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void lintProblemsArePrintedSortedWithPromlintsMessages() {
    int exit =
        check(
            """
            # TYPE train_steps counter
            train_steps 10
            # HELP step_time_milliseconds Step time.
            # TYPE step_time_milliseconds gauge
            step_time_milliseconds 12
            # HELP gpu_memory_used_mb GPU memory.
            # TYPE gpu_memory_used_mb gauge
            gpu_memory_used_mb{device="0"} 1024
            # HELP trainLoss Loss.
            # TYPE trainLoss gauge
            trainLoss{runId="a"} 0.5
            # HELP train_loss Loss.
            # HELP train_loss Loss again.
            train_loss 1
            train_loss 2
            # HELP epoch_total Epoch.
            # TYPE epoch_total gauge
            epoch_total{quantile="0.5"} 3
            """);

    assertThat(exit).isZero();
    assertThat(out.toString())
        .isEqualTo(
            """
            epoch_total non-counter metrics should not have "_total" suffix
            epoch_total non-summary metrics should not have "quantile" label
            gpu_memory_used_mb metric names should not contain abbreviated units
            step_time_milliseconds use base unit "seconds" instead of "milliseconds"
            trainLoss label names should be written in 'snake_case' not 'camelCase'
            trainLoss metric names should be written in 'snake_case' not 'camelCase'
            train_loss duplicate HELP line [line=13]
            train_loss metric not unique
            train_steps counter metrics should have "_total" suffix
            train_steps no help text
            """);
  }

  @Test
  void aParseErrorExitsOneNamingTheLine() {
    int exit = check("train_loss 0.5\ntrain_loss{ 1\n");

    assertThat(exit).isEqualTo(1);
    assertThat(out.toString()).isEmpty();
    assertThat(err.toString())
        .isEqualTo("error while linting: expected label name, got \"1\" [line=2, column=13]\n");
  }

  @Test
  void openMetricsCountersAreNamedWithTheirTotal() {
    String body = "# TYPE steps counter\n# HELP steps Steps.\nsteps_total 3\n# EOF\n";

    assertThat(check(body, "--format=openmetrics")).as(err.toString()).isZero();
    assertThat(out.toString()).isEmpty();
  }

  @Test
  void openMetricsWithoutEofIsAnError() {
    int exit = check("# TYPE steps counter\nsteps_total 3\n", "--format=openmetrics");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString()).startsWith("error while linting: ").contains("[line=");
  }

  @Test
  void isASubcommandOfCheck() throws Exception {
    // FlightdeckCli feeds /dev/null as standard input: an empty body has nothing to report.
    FlightdeckCli.Result result = FlightdeckCli.run("check", "metrics");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout()).isEmpty();
  }
}
