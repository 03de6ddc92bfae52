package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Folding aggregations go series by series while groups x steps stay small, and step by step beyond
 * (AggregationEvaluator). Both orders must give every result to the last bit: the same query over a
 * few steps (series by series) and over many (step by step) agree on the steps they share.
 */
class FoldingLayoutsTest {
  private static final long MINUTE = 60_000;
  private static final int GROUPS = 400;
  private static final int MANY_STEPS = 700;
  private static final int FEW_STEPS = 40;

  /**
   * Three members per group, one sample a minute. Values mix magnitudes (so that the order of
   * addition shows in the last bits), NaN, numbers large enough to overflow a sum (avg's
   * incremental mean) and series that end early (a group loses a member once its last sample is
   * older than the lookback).
   */
  private final InMemoryStorage storage = new InMemoryStorage();

  {
    for (int g = 0; g < GROUPS; g++) {
      for (int member = 0; member < 3; member++) {
        int s = g * 3 + member;
        int length = s % 7 == 0 ? 30 + s % 13 : MANY_STEPS;
        storage.add(
            Labels.of(
                "__name__", "m", "g", Integer.toString(g), "member", Integer.toString(member)),
            length,
            MINUTE,
            i -> {
              if ((i + s) % 97 == 0) {
                return Double.NaN;
              }
              if (s % 5 == 0 && i % 11 == 0) {
                return 1.5e308;
              }
              return ((i * 7 + s * 13) % 50) / 3.0 * (s % 4 == 0 ? 1e10 : 1) - 3;
            });
      }
    }
  }

  private final Engine engine = new Engine(EngineOptions.DEFAULT.withMaxSamples(50_000_000));

  @Test
  void seriesBySeriesAndStepByStepAgreeForEveryFoldingOperator() {
    assertThat((long) GROUPS * MANY_STEPS).as("step by step").isGreaterThan(1 << 18);
    assertThat((long) GROUPS * FEW_STEPS).as("series by series").isLessThan(1 << 18);
    for (String op :
        List.of(
            "sum",
            "avg",
            "count",
            "min",
            "max",
            "group",
            "stddev",
            "stdvar",
            "quantile(0.3,",
            "quantile(scalar(m{g=\"1\",member=\"1\"}) / 10,")) {
      String query = op.endsWith(",") ? op + " m) by (g)" : op + " by (g) (m)";
      MatrixValue many = range(query, MANY_STEPS);
      MatrixValue few = range(query, FEW_STEPS);
      assertThat(few.series()).as(query).hasSize(GROUPS);
      for (int g = 0; g < few.series().size(); g++) {
        RangeSeries expected = many.series().get(g);
        RangeSeries actual = few.series().get(g);
        assertThat(actual.labels()).isEqualTo(expected.labels());
        for (int i = 0; i < actual.timestamps().length; i++) {
          assertThat(actual.timestamps()[i]).isEqualTo(expected.timestamps()[i]);
          assertThat(Double.doubleToRawLongBits(actual.values()[i]))
              .as("%s, group %s at %d", query, actual.labels(), actual.timestamps()[i])
              .isEqualTo(Double.doubleToRawLongBits(expected.values()[i]));
        }
      }
    }
  }

  private MatrixValue range(String query, int steps) {
    return (MatrixValue) engine.rangeQuery(storage, query, 0, (steps - 1) * MINUTE, MINUTE).value();
  }
}
