package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

class FillModifierTest {
  private final InMemoryStorage storage =
      new InMemoryStorage()
          .add(Labels.of("__name__", "a", "x", "1"), 1, 1000, i -> 1)
          .add(Labels.of("__name__", "a", "x", "2"), 1, 1000, i -> 2)
          .add(Labels.of("__name__", "b", "x", "2"), 1, 1000, i -> 20)
          .add(Labels.of("__name__", "b", "x", "3"), 1, 1000, i -> 30)
          .add(Labels.of("__name__", "req", "x", "2", "method", "get"), 1, 1000, i -> 5);

  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  private List<Sample> at0(String query) {
    return ((VectorValue) engine.instantQuery(storage, query, 0).value()).samples();
  }

  private static Sample sample(double value, String... labels) {
    return new Sample(Labels.of(labels), 0, value);
  }

  @Test
  void withoutFillOnlyMatchedSeriesAnswer() {
    assertThat(at0("a + b")).containsExactly(sample(22, "x", "2"));
  }

  @Test
  void fillStandsInForTheMissingSideOnBothSides() {
    assertThat(at0("a + fill(0) b"))
        .containsExactlyInAnyOrder(sample(1, "x", "1"), sample(22, "x", "2"), sample(30, "x", "3"));
  }

  @Test
  void fillLeftAndFillRightEachCoverOneSide() {
    assertThat(at0("a - fill_left(100) b"))
        .containsExactlyInAnyOrder(sample(-18, "x", "2"), sample(70, "x", "3"));
    assertThat(at0("a - fill_right(100) b"))
        .containsExactlyInAnyOrder(sample(-99, "x", "1"), sample(-18, "x", "2"));
  }

  @Test
  void comparisonsFilterFilledPairsLikeAnyOther() {
    assertThat(at0("a > fill(10) b")).isEmpty();
    assertThat(at0("a < bool fill(10) b"))
        .containsExactlyInAnyOrder(sample(1, "x", "1"), sample(1, "x", "2"), sample(1, "x", "3"));
  }

  @Test
  void withGroupingAFilledManySideCarriesOnlyTheMatchLabels() {
    assertThat(at0("req + on(x) group_left fill(0) b"))
        .containsExactlyInAnyOrder(sample(25, "method", "get", "x", "2"), sample(30, "x", "3"));
  }
}
