package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServerConfigFileTest {
  @TempDir Path dir;

  @Test
  void theServerRefusesABadConfigFileBeforeTouchingStorage() throws Exception {
    Path config = dir.resolve("flightdeck.yml");
    Files.writeString(config, "global:\n  scrape_interval: 1x\n");

    FlightdeckCli.Result result =
        FlightdeckCli.run(
            "server",
            "--config.file=" + config,
            "--web.listen-address=127.0.0.1:" + LocalPorts.free(),
            "--storage.tsdb.path=" + dir.resolve("data"));

    assertThat(result.exitCode()).isEqualTo(1);
    assertThat(result.stderr())
        .contains("flightdeck: " + config + ":2:")
        .contains("global.scrape_interval");
    assertThat(dir.resolve("data")).doesNotExist();
  }
}
