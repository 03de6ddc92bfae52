package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

/**
 * Queries stop at their memory limit, and at the limit of all queries together, with an {@code
 * execution} error naming it, before the memory is taken; what they held is given back.
 */
class QueryMemoryLimitTest {
  private static final long DAY = 86_400_000;
  private static final long MIB = 1 << 20;

  /**
   * 200 series of one sample each: {@code last_over_time(wide[2d])} over a day at a 10 s step holds
   * 8,641 points per series, 27 MiB in all, for a result that a dashboard would draw as 200 lines.
   */
  private final InMemoryStorage storage = wide(200);

  private static InMemoryStorage wide(int series) {
    InMemoryStorage storage = new InMemoryStorage();
    for (int i = 0; i < series; i++) {
      storage.add(Labels.of("__name__", "wide", "i", Integer.toString(i)), 1, 1, n -> n);
    }
    return storage;
  }

  @Test
  void aQueryPastItsOwnLimitStopsNamingIt() {
    Engine engine = new Engine(EngineOptions.DEFAULT.withMaxMemory(MIB, 1024 * MIB));
    assertThatThrownBy(() -> engine.rangeQuery(storage, "last_over_time(wide[2d])", 0, DAY, 10_000))
        .isInstanceOfSatisfying(
            QueryException.class,
            e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.EXECUTION))
        .hasMessage(
            "query processing would use too much memory in query execution: more than 1MiB"
                + " (--query.max-memory)");
    // Instant selectors are charged for the steps they fill: a sample seen at every step with @,
    // but only its lookback window's steps without.
    assertThatThrownBy(() -> engine.rangeQuery(storage, "wide @ 0", 0, DAY, 1_000))
        .hasMessageContaining("--query.max-memory");
    assertThat(((MatrixValue) engine.rangeQuery(storage, "wide", 0, DAY, 1_000).value()).series())
        .hasSize(200);
    // Aggregations are charged for their cells.
    assertThatThrownBy(() -> engine.rangeQuery(storage, "sum by (i) (wide)", 0, 300_000, 1))
        .hasMessageContaining("--query.max-memory");
    // The same query over an hour fits.
    MatrixValue small =
        (MatrixValue)
            engine.rangeQuery(storage, "last_over_time(wide[2d])", 0, 60_000, 10_000).value();
    assertThat(small.series()).hasSize(200);
  }

  @Test
  void queriesTogetherStopAtTheSharedLimitAndGiveTheirMemoryBack() {
    Engine engine = new Engine(EngineOptions.DEFAULT.withMaxMemory(1024 * MIB, 2 * MIB));
    for (int i = 0; i < 3; i++) {
      // A copy of the engine (a request's own timeout) shares the limit.
      Engine copy = engine.withTimeout(java.time.Duration.ofSeconds(30));
      assertThatThrownBy(() -> copy.rangeQuery(storage, "last_over_time(wide[2d])", 0, DAY, 10_000))
          .hasMessage(
              "queries running at once would use too much memory in query execution: more than"
                  + " 2MiB together (--query.max-memory-total)");
      // Had the failed query kept its charge, this one (0.7 MiB) would not fit beside it.
      MatrixValue fits =
          (MatrixValue)
              engine.rangeQuery(storage, "last_over_time(wide[2d])", 0, 2_400_000, 10_000).value();
      assertThat(fits.series()).hasSize(200);
    }
  }

  @Test
  void theDefaultLimitsLeaveOrdinaryQueriesAlone() {
    Engine engine = new Engine(EngineOptions.DEFAULT);
    assertThat(EngineOptions.DEFAULT.maxQueryMemoryBytes())
        .isEqualTo(Runtime.getRuntime().maxMemory() / 4);
    MatrixValue result =
        (MatrixValue)
            engine.rangeQuery(storage, "last_over_time(wide[2d])", 0, DAY, 60_000).value();
    assertThat(result.series()).hasSize(200);
  }
}
