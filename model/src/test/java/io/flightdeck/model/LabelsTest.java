package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Examples; the properties of labels (lookup, total order) are in testkit's test tree ({@code
 * LabelsPropertiesTest}), since model cannot depend on testkit.
 */
class LabelsTest {

  @Test
  void sortsLabelsByName() {
    Labels labels = Labels.of("job", "api", "__name__", "up", "instance", "a:9100");

    assertThat(labels.names()).containsExactly("__name__", "instance", "job");
    assertThat(labels.name(1)).isEqualTo("instance");
    assertThat(labels.value(1)).isEqualTo("a:9100");
    assertThat(labels.metricName()).isEqualTo("up");
  }

  @Test
  void dropsEmptyValuesBecausePrometheusTreatsThemAsAbsent() {
    Labels labels = Labels.of("a", "", "b", "1");

    assertThat(labels.size()).isEqualTo(1);
    assertThat(labels.has("a")).isFalse();
    assertThat(labels).isEqualTo(Labels.of("b", "1"));
    assertThat(Labels.of("a", "")).isEqualTo(Labels.EMPTY);
    assertThat(Labels.of("a", "").isEmpty()).isTrue();
  }

  @Test
  void repeatedNameKeepsTheLastValue() {
    assertThat(Labels.of("a", "1", "a", "2").get("a")).isEqualTo("2");
    assertThat(Labels.of("a", "1", "a", "").has("a")).isFalse();
  }

  @Test
  void pairsGivenInOrderAreCopiedNotShared() {
    String[] pairs = {"cpu", "0", "mode", "user"};
    Labels labels = Labels.of(pairs);
    pairs[1] = "1";

    assertThat(labels.get("cpu")).isEqualTo("0");
    assertThat(labels).isEqualTo(Labels.builder().set("mode", "user").set("cpu", "0").build());
    assertThat(Labels.of()).isSameAs(Labels.EMPTY);
  }

  @Test
  void rejectsAnOddNumberOfArguments() {
    assertThatThrownBy(() -> Labels.of("a", "1", "b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("odd");
  }

  @Test
  void getOfAnAbsentLabelIsEmptyWhereverItWouldSort() {
    Labels labels = Labels.of("b", "1", "d", "2", "f", "3");

    // Before the first, between two, and after the last name: every exit of the binary search.
    assertThat(labels.get("a")).isEmpty();
    assertThat(labels.get("c")).isEmpty();
    assertThat(labels.get("e")).isEmpty();
    assertThat(labels.get("g")).isEmpty();
    assertThat(Labels.EMPTY.get("a")).isEmpty();
    assertThat(labels.has("c")).isFalse();
  }

  @Test
  void equalAndSameHashWhateverTheInputOrder() {
    Labels a = Labels.of("x", "1", "y", "2", "z", "3");
    Labels b = Labels.of("z", "3", "x", "1", "y", "2");
    Labels c = Labels.fromMap(Map.of("y", "2", "z", "3", "x", "1"));

    assertThat(a).isEqualTo(b).isEqualTo(c).hasSameHashCodeAs(b).hasSameHashCodeAs(c);
    assertThat(a.compareTo(b)).isZero();
    assertThat(a).isNotEqualTo(Labels.of("x", "1", "y", "2", "z", "4"));
  }

  @Test
  void comparesPairByPairNameBeforeValueAndAPrefixSortsFirst() {
    assertThat(Labels.of("a", "1").compareTo(Labels.of("a", "1", "b", "1"))).isNegative();
    // Size only breaks ties: a shorter set with a larger first value sorts after.
    assertThat(Labels.of("a", "2").compareTo(Labels.of("a", "1", "b", "1"))).isPositive();
    assertThat(Labels.of("a", "9").compareTo(Labels.of("b", "1"))).isNegative();
    // The first differing pair decides, even though {a=2,b=1} has the smaller second name.
    assertThat(Labels.of("a", "1", "c", "1").compareTo(Labels.of("a", "2", "b", "1"))).isNegative();
  }

  @Test
  void toStringUsesPrometheusNotation() {
    Labels labels = Labels.of("__name__", "http_requests_total", "method", "GET", "code", "200");

    assertThat(labels).hasToString("http_requests_total{code=\"200\", method=\"GET\"}");
    assertThat(Labels.of("a", "1")).hasToString("{a=\"1\"}");
  }

  @Test
  void toStringEscapesBackslashQuoteAndNewline() {
    assertThat(Labels.of("path", "a\"b\\c\nd")).hasToString("{path=\"a\\\"b\\\\c\\nd\"}");
  }

  @Test
  void builderSetsReplacesAndRemovesWithoutTouchingTheOriginal() {
    Labels original = Labels.of("__name__", "up", "job", "api", "env", "dev");

    Labels changed =
        original.toBuilder()
            .set("job", "db")
            .set("zone", "eu")
            .remove("env")
            .remove("absent")
            .build();

    assertThat(changed).isEqualTo(Labels.of("__name__", "up", "job", "db", "zone", "eu"));
    assertThat(original).isEqualTo(Labels.of("__name__", "up", "job", "api", "env", "dev"));
  }

  @Test
  void builderSettingAnEmptyValueRemovesTheLabel() {
    Labels labels = Labels.of("a", "1", "b", "2").toBuilder().set("a", "").build();

    assertThat(labels).isEqualTo(Labels.of("b", "2"));
  }

  @Test
  void stableHashSeparatesNamesFromValues() {
    // Without a separator {ab="c"} and {a="bc"} would hash the same bytes.
    assertThat(Labels.of("ab", "c").stableHash()).isNotEqualTo(Labels.of("a", "bc").stableHash());
    assertThat(Labels.of("b", "2", "a", "1").stableHash())
        .isEqualTo(Labels.of("a", "1", "b", "2").stableHash());
  }
}
