package io.flightdeck.model;

import static io.flightdeck.testkit.Generators.alphaChars;
import static io.flightdeck.testkit.Generators.strings;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Properties of {@link Labels}, beside model's {@code LabelsTest}: they run here because model
 * cannot depend on testkit, which depends on model.
 */
class LabelsPropertiesTest {
  private static final Gen<String> ALPHA = strings(alphaChars(), 1, Generators.DEFAULT_MAX_SIZE);

  @Test
  void getFindsEveryLabelAndNothingElse() {
    Property.tries(1000)
        .check(
            in -> {
              Map<String, String> map = in.draw("map", Generators.mapOf(ALPHA, ALPHA, 0, 12));
              // Names of the set come up as probes too, not only names it lacks.
              String probe =
                  in.draw(
                      "probe",
                      map.isEmpty()
                          ? ALPHA
                          : Generators.oneOf(ALPHA, Generators.of(List.copyOf(map.keySet()))));
              Labels labels = Labels.fromMap(map);

              map.forEach((name, value) -> assertThat(labels.get(name)).isEqualTo(value));
              assertThat(labels.get(probe)).isEqualTo(map.getOrDefault(probe, ""));
              assertThat(labels.size()).isEqualTo(map.size());
            });
  }

  @Test
  void compareToIsATotalOrderConsistentWithEquals() {
    Property.tries(2000)
        .check(
            in -> {
              Labels a = in.draw("a", smallLabelSets());
              Labels b = in.draw("b", smallLabelSets());
              Labels c = in.draw("c", smallLabelSets());
              assertThat(Integer.signum(a.compareTo(b))).isEqualTo(-Integer.signum(b.compareTo(a)));
              assertThat(a.compareTo(b) == 0).isEqualTo(a.equals(b));
              if (a.equals(b)) {
                assertThat(a.hashCode()).isEqualTo(b.hashCode());
              }
              if (a.compareTo(b) <= 0 && b.compareTo(c) <= 0) {
                assertThat(a.compareTo(c)).isNotPositive();
              }
            });
  }

  /** Few names and values, so that equal sets, shared prefixes and ties are common. */
  private static Gen<Labels> smallLabelSets() {
    Gen<String> names = Generators.of("a", "b", "c", "__name__");
    Gen<String> values = Generators.of("", "1", "2", "10");
    Gen<List<String>> pair = c -> List.of(names.generate(c), values.generate(c));
    return pair.list(0, 4)
        .map(
            pairs -> {
              List<String> flat = new ArrayList<>();
              pairs.forEach(flat::addAll);
              return Labels.of(flat.toArray(new String[0]));
            });
  }
}
