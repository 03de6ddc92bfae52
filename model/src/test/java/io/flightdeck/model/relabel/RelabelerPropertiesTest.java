package io.flightdeck.model.relabel;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.AlphaChars;
import net.jqwik.api.constraints.LongRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.constraints.StringLength;

class RelabelerPropertiesTest {

  @Property
  void hashmodLandsInRange(
      @ForAll @StringLength(max = 20) String value, @ForAll @LongRange(min = 1) long modulus) {
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

  @Property
  void keepAndDropAreComplementary(
      @ForAll @AlphaChars @StringLength(max = 6) String value,
      @ForAll @AlphaChars @StringLength(min = 1, max = 3) String needle) {
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

  @Property
  void labelkeepAndLabeldropPartitionTheNames(
      @ForAll @Size(max = 6)
          Map<
                  @AlphaChars @StringLength(min = 1, max = 4) String,
                  @AlphaChars @StringLength(min = 1, max = 4) String>
              labels) {
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

  @Property
  void templatesWithoutDollarAreLiteral(@ForAll @StringLength(max = 10) String text) {
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
