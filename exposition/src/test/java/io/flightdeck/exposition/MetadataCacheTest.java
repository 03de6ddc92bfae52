package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.MetricMetadata;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A target's bodies parsed with one cache must read as each does alone. */
class MetadataCacheTest {
  private static final ParseOptions SCRAPE = ParseOptions.defaults().withStrictOpenMetrics(false);

  private static Map<String, MetricMetadata> metadata(
      ExpositionFormat format, String body, MetadataCache cache) throws ExpositionParseException {
    SampleStream samples =
        SampleStream.create(format, body.getBytes(StandardCharsets.UTF_8), SCRAPE, cache);
    while (samples.advance()) {
      samples.labels();
    }
    return Map.copyOf(samples.metadata());
  }

  /** Text bodies from a few families whose HELP text and TYPE vary between scrapes. */
  private static Gen<String> textBodies() {
    Gen<String> family = Generators.of("gpu_power_watts", "train_loss", "node_cpu_seconds_total");
    Gen<String> help =
        Generators.of("Power draw.", "Power draw in watts\\n(board).", "", "Loss \\\\ per step.");
    Gen<String> type = Generators.of("gauge", "counter", "untyped");
    Gen<Integer> layouts = Generators.integers(0, 3);
    Gen<String> block =
        c -> block(family.generate(c), help.generate(c), type.generate(c), layouts.generate(c));
    return block.list(0, 5).map(blocks -> String.join("", blocks));
  }

  /** One family's HELP and TYPE lines in one of four layouts, and a sample. */
  private static String block(String name, String text, String kind, int layout) {
    String metadata =
        switch (layout) {
          case 0 -> "# HELP " + name + " " + text + "\n# TYPE " + name + " " + kind;
          case 1 -> "# TYPE " + name + " " + kind + "\n# HELP " + name + " " + text;
          case 2 -> "# HELP " + name + " " + text;
          default -> "#  TYPE  " + name + "\t" + kind;
        };
    return metadata + "\n" + name + " 1\n";
  }

  @Test
  void textBodiesParsedInTurnWithOneCacheHaveTheirOwnMetadata() {
    Property.tries(1000)
        .check(in -> haveTheirOwnMetadata(in.draw("bodies", textBodies().list(1, 6))));
  }

  private static void haveTheirOwnMetadata(List<String> bodies) throws Exception {
    MetadataCache cache = new MetadataCache();
    for (String body : bodies) {
      assertThat(metadata(ExpositionFormat.TEXT_0_0_4, body, cache))
          .as(body)
          .isEqualTo(metadata(ExpositionFormat.TEXT_0_0_4, body, null));
    }
  }

  @Test
  void openMetricsBodiesParsedInTurnWithOneCacheHaveTheirOwnMetadata() throws Exception {
    MetadataCache cache = new MetadataCache();
    String first =
        "# TYPE train_tokens counter\n# UNIT train_tokens tokens\n# HELP train_tokens Seen.\n"
            + "train_tokens_total 1\n# EOF\n";
    String second = first.replace("Seen.", "Tokens seen.").replace("counter", "gauge");
    for (String body : List.of(first, second, first)) {
      assertThat(metadata(ExpositionFormat.OPENMETRICS_1_0_0, body, cache))
          .isEqualTo(metadata(ExpositionFormat.OPENMETRICS_1_0_0, body, null));
    }
  }

  @Test
  void aLineThatBrokeSinceTheLastScrapeStillFails() throws Exception {
    MetadataCache cache = new MetadataCache();
    metadata(ExpositionFormat.TEXT_0_0_4, "# TYPE train_loss gauge\ntrain_loss 1\n", cache);

    assertThatThrownBy(
            () ->
                metadata(
                    ExpositionFormat.TEXT_0_0_4, "# TYPE train_loss gauges\ntrain_loss 1\n", cache))
        .isInstanceOf(ExpositionParseException.class)
        .hasMessageContaining("invalid metric type \"gauges\"");
  }
}
