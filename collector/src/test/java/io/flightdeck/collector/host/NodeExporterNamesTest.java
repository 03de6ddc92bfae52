package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every family we emit is declared, with the same TYPE and HELP, in node_exporter's own end-to-end
 * expected output (upstream's main branch, see the fixture's PROVENANCE.md).
 */
class NodeExporterNamesTest {

  @Test
  void familiesMatchUpstreamMetadata() throws Exception {
    byte[] body =
        Files.readAllBytes(SharedFixtures.fixture("exposition/node_exporter/e2e-output.txt"));
    ExpositionParser parser =
        ExpositionParser.create(ExpositionFormat.TEXT_0_0_4, body, ParseOptions.defaults());
    while (parser.next() != null) {
      // Reading to the end collects every family's metadata.
    }
    Map<String, MetricMetadata> upstream = parser.metadata();

    HostCollector.Scrape scrape =
        HostCollector.linux(HostCollectorGoldenTest.fixtureProc(), new ManualClock(0)).collect();

    for (MetricFamily family : scrape.families()) {
      // Upstream's fixture meminfo is from an older kernel (no MemAvailable); the memory names
      // are checked against a live node_exporter in NodeExporterDifferentialTest.
      if (family.name().startsWith("node_memory_") && !upstream.containsKey(family.name())) {
        continue;
      }
      assertThat(upstream.get(family.name())).as(family.name()).isEqualTo(family.metadata());
    }
  }
}
