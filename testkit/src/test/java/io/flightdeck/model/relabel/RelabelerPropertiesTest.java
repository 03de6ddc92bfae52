package io.flightdeck.model.relabel;

import static io.flightdeck.testkit.Generators.alphaChars;
import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.mapOf;
import static io.flightdeck.testkit.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.testkit.Property;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Properties of relabelling. They run in testkit's test tree because model cannot depend on
 * testkit, which depends on model.
 */
class RelabelerPropertiesTest {

  @Test
  void hashmodLandsInRange() {
    Property.tries(1000)
        .check(
            in ->
                hashmodInRange(
                    in.draw("value", strings(0, 20)),
                    in.draw("modulus", longs(1, Long.MAX_VALUE))));
  }

  private static void hashmodInRange(String value, long modulus) {
    RelabelConfig c =
        RelabelConfig.builder()
            .sourceLabels("a")
            .targetLabel("shard")
            .action(RelabelAction.HASHMOD)
            .modulus(modulus)
            .build();
    Labels out = Relabeler.process(Labels.of("a", value), List.of(c));
    long shard = Long.parseLong(out.get("shard"));
    assertThat(shard).isBetween(0L, modulus - 1);
  }

  @Test
  void keepAndDropAreComplementary() {
    Property.tries(1000)
        .check(
            in ->
                keepIsNotDrop(
                    in.draw("value", strings(alphaChars(), 0, 6)),
                    in.draw("needle", strings(alphaChars(), 1, 3))));
  }

  private static void keepIsNotDrop(String value, String needle) {
    Labels in = Labels.of("a", value.isEmpty() ? "x" : value);
    String regex = ".*" + needle + ".*";
    Labels kept =
        Relabeler.process(
            in,
            List.of(
                RelabelConfig.builder()
                    .sourceLabels("a")
                    .regex(regex)
                    .action(RelabelAction.KEEP)
                    .build()));
    Labels notDropped =
        Relabeler.process(
            in,
            List.of(
                RelabelConfig.builder()
                    .sourceLabels("a")
                    .regex(regex)
                    .action(RelabelAction.DROP)
                    .build()));
    assertThat(kept == null).isNotEqualTo(notDropped == null);
  }

  @Test
  void labelkeepAndLabeldropPartitionTheNames() {
    Property.tries(1000)
        .check(
            in ->
                partitions(
                    in.draw(
                        "labels",
                        mapOf(strings(alphaChars(), 1, 4), strings(alphaChars(), 1, 4), 0, 6))));
  }

  private static void partitions(Map<String, String> labels) {
    Labels in = Labels.fromMap(labels);
    RelabelRegex regex = RelabelRegex.of("[a-m].*");
    Labels kept =
        Relabeler.process(
            in,
            List.of(RelabelConfig.builder().regex(regex).action(RelabelAction.LABELKEEP).build()));
    Labels dropped =
        Relabeler.process(
            in,
            List.of(RelabelConfig.builder().regex(regex).action(RelabelAction.LABELDROP).build()));
    assertThat(kept.size() + dropped.size()).isEqualTo(in.size());
    kept.forEach((name, value) -> assertThat(dropped.has(name)).isFalse());
  }

  @Test
  void templatesWithoutDollarAreLiteral() {
    Property.tries(1000).check(in -> literal(in.draw("text", strings(0, 10))));
  }

  private static void literal(String text) {
    String literal = text.replace("$", "");
    Labels out =
        Relabeler.process(
            Labels.of("a", "v"),
            List.of(
                RelabelConfig.builder()
                    .sourceLabels("a")
                    .targetLabel("b")
                    .replacement(literal)
                    .build()));
    assertThat(out.get("b")).isEqualTo(literal);
  }
}
