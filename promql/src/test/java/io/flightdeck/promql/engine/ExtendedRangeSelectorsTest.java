package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class ExtendedRangeSelectorsTest {
  /** A counter 1, 2, 3, 4, 5 at 0s, 15s, ..., 60s. */
  private final InMemoryStorage storage =
      new InMemoryStorage().add(Labels.of("__name__", "c"), 5, 15_000, i -> i + 1);

  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  private double valueAt(String query, long time) {
    VectorValue v = (VectorValue) engine.instantQuery(storage, query, time).value();
    assertThat(v.samples()).hasSize(1);
    return v.samples().get(0).value();
  }

  @Test
  void anchoredStartsFromTheNewestSampleAtOrBeforeTheRangeStart() {
    // (5s, 65s] holds 2..5; the anchor is the sample at 0s, before the range.
    assertThat(valueAt("increase(c[1m] anchored)", 65_000)).isEqualTo(4);
    assertThat(valueAt("increase(c[1m])", 65_000)).isEqualTo(4);
    // Without extrapolation: (-10s, 50s] holds 1..4.
    assertThat(valueAt("increase(c[1m] anchored)", 50_000)).isEqualTo(3);
    assertThat(valueAt("changes(c[10s] anchored)", 50_000)).isEqualTo(1);
  }

  @Test
  void smoothedInterpolatesTheValuesAtBothRangeEnds() {
    // At 5s, the right end is interpolated between 1 (0s) and 2 (15s).
    assertThat(valueAt("increase(c[1m] smoothed)", 5_000)).isCloseTo(1.0 / 3, within(1e-12));
    assertThat(valueAt("rate(c[1m] smoothed)", 5_000)).isCloseTo(1.0 / 180, within(1e-12));
  }

  @Test
  void aSmoothedInstantSelectorInterpolatesAtTheStep() {
    assertThat(valueAt("c smoothed", 10_000)).isCloseTo(1 + 10.0 / 15, within(1e-12));
    assertThat(valueAt("c smoothed", 30_000)).isEqualTo(3);
    // After the last sample the value carries on for the lookback delta.
    assertThat(valueAt("c smoothed", 100_000)).isEqualTo(5);
  }

  @Test
  void aRangeSelectorOnItsOwnIsFramedByItsEndValues() {
    MatrixValue m = (MatrixValue) engine.instantQuery(storage, "c[20s] anchored", 50_000).value();
    RangeSeries s = m.series().get(0);
    assertThat(s.timestamps()).containsExactly(30_000, 45_000, 50_000);
    assertThat(s.values()).containsExactly(3, 4, 4);
  }

  @Test
  void functionsThatCannotUseTheModifiersFail() {
    assertThatThrownBy(() -> engine.instantQuery(storage, "max_over_time(c[1m] anchored)", 0))
        .isInstanceOf(QueryException.class)
        .hasMessage(
            "anchored modifier can only be used with: changes, delta, increase, rate, resets -"
                + " not with max_over_time");
    assertThatThrownBy(() -> engine.instantQuery(storage, "changes(c[1m] smoothed)", 0))
        .hasMessage(
            "smoothed modifier can only be used with: delta, increase, rate - not with changes");
  }
}
