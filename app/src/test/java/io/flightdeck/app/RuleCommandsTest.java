package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code flightdeck check rules} and {@code flightdeck test rules} on the shipped rule packs and on
 * a broken file, with promtool's output and exit codes.
 */
class RuleCommandsTest {
  private static final Path PACKS =
      Path.of(System.getProperty("flightdeck.root"), "rules", "packs");

  @TempDir Path dir;

  @Test
  void shippedPacksPassTheirCheckAndUnitTests() throws Exception {
    FlightdeckCli.Result check =
        FlightdeckCli.run(
            "check",
            "rules",
            PACKS.resolve("gpu.yml").toString(),
            PACKS.resolve("training.yml").toString());
    assertThat(check.exitCode()).as(check.stdout() + check.stderr()).isZero();
    assertThat(check.stdout()).contains("SUCCESS");

    FlightdeckCli.Result test =
        FlightdeckCli.run(
            "test",
            "rules",
            PACKS.resolve("gpu_test.yml").toString(),
            PACKS.resolve("training_test.yml").toString());
    assertThat(test.exitCode()).as(test.stdout() + test.stderr()).isZero();
    assertThat(test.stdout()).contains("SUCCESS");
  }

  @Test
  void aBrokenRuleFileFailsWithItsFileAndRule() throws Exception {
    Path bad = dir.resolve("bad.yml");
    Files.writeString(
        bad,
        """
        groups:
          - name: gpu
            rules:
              - alert: Broken
                expr: sum(
        """);
    FlightdeckCli.Result check = FlightdeckCli.run("check", "rules", bad.toString());
    assertThat(check.exitCode()).isEqualTo(1);
    assertThat(check.stdout() + check.stderr()).contains("FAILED").contains("bad.yml");
  }
}
