package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** promtool's expanding notation for input series. */
class SeriesDescriptionTest {
  @Test
  void expandsLikePromtoolsDocumentation() {
    assertThat(SeriesDescription.values("-2+4x3")).containsExactly(-2.0, 2.0, 6.0, 10.0);
    assertThat(SeriesDescription.values(" 1-2x4")).containsExactly(1.0, -1.0, -3.0, -5.0, -7.0);
    assertThat(SeriesDescription.values("1x4")).containsExactly(1.0, 1.0, 1.0, 1.0, 1.0);
    assertThat(SeriesDescription.values("0x2 1e3 .5")).containsExactly(0.0, 0.0, 0.0, 1000.0, 0.5);
  }

  @Test
  void missingStaleAndSpecialValues() {
    List<Double> values = SeriesDescription.values("1 _x3 stale _ NaN Inf -Inf");
    assertThat(values).hasSize(9);
    assertThat(values.subList(0, 4)).containsExactly(1.0, null, null, null);
    assertThat(StaleMarker.is(values.get(4))).isTrue();
    assertThat(values.get(5)).isNull();
    assertThat(values.get(6)).isNaN();
    assertThat(StaleMarker.is(values.get(6))).isFalse();
    assertThat(values.subList(7, 9))
        .isEqualTo(Arrays.asList(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY));
  }

  @Test
  void badValuesAreRejected() {
    assertThatThrownBy(() -> SeriesDescription.values("1 abc"))
        .hasMessage("invalid value in series values: \"abc\"");
  }

  @Test
  void metricsAreSelectorsWithEqualityMatchers() {
    assertThat(SeriesDescription.metric("up{job=\"a\", instance=\"x\"}"))
        .isEqualTo(Labels.of("__name__", "up", "job", "a", "instance", "x"));
    assertThat(SeriesDescription.metric("{}")).isEqualTo(Labels.EMPTY);
    assertThat(SeriesDescription.metric("{job=\"a\"}")).isEqualTo(Labels.of("job", "a"));
    assertThatThrownBy(() -> SeriesDescription.metric("up{job=~\"a\"}"))
        .hasMessage("only equality matchers describe a series: up{job=~\"a\"}");
    assertThatThrownBy(() -> SeriesDescription.metric("up{")).hasMessageContaining("parse error");
  }
}
