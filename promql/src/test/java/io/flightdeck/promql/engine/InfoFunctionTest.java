package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import java.util.List;
import org.junit.jupiter.api.Test;

class InfoFunctionTest {
  private static final long MINUTE = 60_000;

  private final InMemoryStorage storage =
      new InMemoryStorage()
          .add(Labels.of("__name__", "up", "instance", "a", "job", "1"), 10, MINUTE, i -> i)
          .add(Labels.of("__name__", "up", "instance", "b", "job", "1"), 10, MINUTE, i -> 2 * i)
          .add(
              Labels.of("__name__", "target_info", "instance", "a", "job", "1", "version", "v1"),
              10,
              MINUTE,
              i -> 1)
          .add(
              Labels.of("__name__", "build_info", "instance", "a", "job", "1", "build", "x"),
              10,
              MINUTE,
              i -> 1);

  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  private List<Sample> at(String query, long time) {
    return ((VectorValue) engine.instantQuery(storage, query, time).value()).samples();
  }

  @Test
  void addsTheDataLabelsOfTargetInfoByInstanceAndJob() {
    assertThat(at("info(up)", 5 * MINUTE))
        .containsExactlyInAnyOrder(
            new Sample(
                Labels.of("__name__", "up", "instance", "a", "job", "1", "version", "v1"),
                5 * MINUTE,
                5),
            new Sample(Labels.of("__name__", "up", "instance", "b", "job", "1"), 5 * MINUTE, 10));
  }

  @Test
  void theSecondArgumentPicksInfoMetricsAndDataLabels() {
    assertThat(at("info(up{instance=\"a\"}, {__name__=\"build_info\"})", 5 * MINUTE))
        .extracting(Sample::labels)
        .containsExactly(Labels.of("__name__", "up", "instance", "a", "job", "1", "build", "x"));
    // A data matcher that needs a value drops the series without a matching info series.
    assertThat(at("info(up, {version=~\".+\"})", 5 * MINUTE))
        .extracting(s -> s.labels().get("instance"))
        .containsExactly("a");
  }

  @Test
  void infoSeriesAreReadAtTheTimeTheFirstArgumentReads() {
    // target_info has no sample after 9m; with offset the lookup happens where it has one.
    assertThat(at("info(up offset 10m)", 19 * MINUTE))
        .extracting(s -> s.labels().get("version"))
        .containsExactlyInAnyOrder("v1", "");
    assertThat(at("info(up @ 540)", 30 * MINUTE))
        .extracting(s -> s.labels().get("version"))
        .containsExactlyInAnyOrder("v1", "");
  }

  @Test
  void conflictingDataLabelsOfTwoInfoMetricsFail() {
    InMemoryStorage conflicting =
        new InMemoryStorage()
            .add(Labels.of("__name__", "up", "job", "1"), 3, MINUTE, i -> 1)
            .add(Labels.of("__name__", "a_info", "job", "1", "x", "a"), 3, MINUTE, i -> 1)
            .add(Labels.of("__name__", "b_info", "job", "1", "x", "b"), 3, MINUTE, i -> 1);
    assertThatThrownBy(
            () -> engine.instantQuery(conflicting, "info(up, {__name__=~\".+_info\"})", MINUTE))
        .isInstanceOf(QueryException.class)
        .hasMessage("conflicting label: x");
  }
}
