package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.demo.DemoOptions;
import io.flightdeck.demo.RunningDemo;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code flightdeck demo}'s own options: the incident list, bad input, the server's flags. */
class DemoCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return new CommandLine(new DemoCommand())
        .setOut(new PrintWriter(out))
        .setErr(new PrintWriter(err))
        .execute(args);
  }

  @Test
  void listPrintsEveryIncidentWithItsSimulatedAndRealTimes() {
    assertThat(run("--list")).isZero();
    String text = out.toString();
    assertThat(text.lines().filter(l -> l.startsWith("  "))).hasSize(7);
    assertThat(text)
        .contains("at speed 30")
        .containsPattern(
            "nan-loss +0:20:00-0:25:00 +\\(real 0:00:40-0:00:50\\).*TrainingLossNotFinite")
        .containsPattern("hung-rank +1:55:00-2:15:00 +\\(real 0:03:50-0:04:30\\).*TrainingStalled")
        .contains("xid-79", "hot-gpu", "memory-leak", "network-saturation", "loss-rebound");
    // Every incident begins within the first five minutes of real time at the default speed.
    assertThat(text.lines().filter(l -> l.startsWith("  ")))
        .allSatisfy(l -> assertThat(l).containsPattern("\\(real 0:0[0-4]:"));
  }

  @Test
  void listFollowsTheSpeed() {
    assertThat(run("--list", "--speed=60")).isZero();
    assertThat(out.toString())
        .containsPattern("nan-loss +0:20:00-0:25:00 +\\(real 0:00:20-0:00:25\\)");
  }

  @Test
  void badSpeedOrDurationIsAUsageErrorNamingTheOption() {
    assertThat(run("--list", "--speed=0")).isEqualTo(2);
    assertThat(err.toString()).contains("--speed must be a number greater than 0, got 0.0");
    assertThat(run("--list", "--duration=soon")).isEqualTo(2);
    assertThat(err.toString()).contains("--duration: cannot parse \"soon\"");
  }

  @Test
  void theServerGetsTheDemosConfigAndTimingAndTheUsersOwnFlagsWin(@TempDir Path dir)
      throws Exception {
    DemoCommand command = new DemoCommand();
    command.dataDir = dir;
    command.serverArgs = List.of("--web.listen-address=127.0.0.1:0", "--query.lookback-delta=1m");
    try (RunningDemo demo = RunningDemo.start(DemoOptions.defaults(dir.resolve("demo")))) {
      List<String> args = command.serverArguments(demo);
      assertThat(args)
          .contains(
              "--config.file=" + demo.configFile(),
              "--tensorboard.logdir=" + demo.logdir(),
              "--storage.tsdb.path=" + dir.resolve("tsdb"),
              "--collector.enable=false",
              "--tensorboard.poll-interval=667ms",
              "--web.listen-address=127.0.0.1:0",
              "--query.lookback-delta=1m");
      assertThat(args.stream().filter(a -> a.startsWith("--query.lookback-delta"))).hasSize(1);
      command.serverArgs = List.of();
      assertThat(command.serverArguments(demo)).contains("--query.lookback-delta=10000ms");
    }
  }
}
