package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckConfigCommandTest {
  @TempDir Path dir;

  @Test
  void aValidFileSucceeds() throws Exception {
    Path file = dir.resolve("flightdeck.yml");
    Files.writeString(
        file,
        """
        global:
          scrape_interval: 15s
        scrape_configs:
          - job_name: ms-swift-lora
            static_configs:
              - targets: ['trainer-0:8080']
        """);

    FlightdeckCli.Result result = FlightdeckCli.run("check", "config", file.toString());

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout())
        .isEqualTo(
            "Checking "
                + file
                + "\n  SUCCESS: "
                + file
                + " is valid prometheus config file syntax\n\n");
  }

  @Test
  void anInvalidFileFailsNamingLineAndField() throws Exception {
    Path file = dir.resolve("bad.yml");
    Files.writeString(
        file,
        "scrape_configs:\n  - job_name: train\n    scrape_timeout: 2m\n    scrape_interval: 1m\n");

    FlightdeckCli.Result result = FlightdeckCli.run("check", "config", file.toString());

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stdout()).startsWith("Checking " + file + "\n");
    assertThat(result.stderr()).startsWith("  FAILED: " + file + ":").contains("scrape_configs[0]");
  }
}
