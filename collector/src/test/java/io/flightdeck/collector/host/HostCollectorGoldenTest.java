package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.ManualClock;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;

/**
 * The whole host section rendered from the fixture procfs tree must equal the golden /metrics body
 * byte for byte. The golden body was checked against node_exporter 1.5 run with {@code
 * --path.procfs} on the same tree (see {@link FixtureDifferentialTest}).
 */
class HostCollectorGoldenTest {

  static Path fixtureProc() throws URISyntaxException {
    return Paths.get(HostCollectorGoldenTest.class.getResource("/procfs/stat").toURI()).getParent();
  }

  @Test
  void fixtureTreeRendersTheGoldenBody() throws Exception {
    HostCollector.Scrape scrape =
        HostCollector.linux(fixtureProc(), new ManualClock(1_700_000_000_000L)).collect();
    String actual = MetricsText.toText(scrape.families());

    Path golden =
        Paths.get(HostCollectorGoldenTest.class.getResource("/golden/host.metrics").toURI());
    // Written beside the build output so a failing run can be inspected with diff.
    Path actualFile = Path.of("target", "host.metrics.actual");
    Files.createDirectories(actualFile.getParent());
    Files.writeString(actualFile, actual, StandardCharsets.UTF_8);

    assertThat(scrape.failures()).isEmpty();
    assertThat(actual).isEqualTo(Files.readString(golden, StandardCharsets.UTF_8));
  }
}
