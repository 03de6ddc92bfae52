package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The timeout and cancellation reach the loops whose length a query decides: the steps of one
 * series, not only the series. With a timeout already past, a query of one series over many steps
 * would otherwise finish (the engine checks every 64th loop turn, and one series is one turn).
 */
class QueryStopsTest {
  private static final long HOUR = 3_600_000;

  /** One series with a sample every 15 s for a day. */
  private final InMemoryStorage storage =
      new InMemoryStorage().add(Labels.of("__name__", "x"), 5_760, 15_000, i -> i % 100);

  private final Engine engine = new Engine(EngineOptions.DEFAULT);
  private final Engine expired = engine.withTimeout(Duration.ofNanos(1));

  @Test
  void theStepsOfOneSeriesCheckTheTimeout() {
    String[] queries = {
      "x", "quantile_over_time(0.5, x[1h])", "absent_over_time(x[1m])", "x smoothed", "sum(x)"
    };
    for (String query : queries) {
      assertThatThrownBy(() -> expired.rangeQuery(storage, query, 0, 24 * HOUR, 1_000))
          .as(query)
          .isInstanceOfSatisfying(
              QueryException.class,
              e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.TIMEOUT))
          .hasMessage("query timed out in expression evaluation");
    }
  }

  @Test
  void theSameQueriesFinishWithinTheirTime() {
    assertThat(
            engine.rangeQuery(storage, "quantile_over_time(0.5, x[1h])", 0, HOUR, 60_000).value())
        .isInstanceOf(MatrixValue.class);
  }

  @Test
  void cancelAllStopsARunningQueryAndTheEngineServesOn() throws Exception {
    // Each of 86,401 steps sorts a window of 240 samples, 5,760 times over: minutes of work,
    // so only the cancellation can end it in this test.
    String query = "quantile_over_time(0.5, x[1h])[1d:1s]";
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                engine.rangeQuery(storage, "max_over_time(" + query + ")", 0, 24 * HOUR, 1_000);
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    thread.start();
    while (thread.isAlive()) {
      engine.withTimeout(Duration.ofMinutes(1)).cancelAll(); // a copy cancels the original's too
      thread.join(10);
    }
    assertThat(failure.get())
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.CANCELED))
        .hasMessage("query was canceled in expression evaluation");
    assertThat(engine.instantQuery(storage, "x", HOUR).value()).isInstanceOf(VectorValue.class);
  }

  @Test
  void aCancellationSignalStopsOnlyTheQueriesOfItsCopy() throws Exception {
    String query = "max_over_time(quantile_over_time(0.5, x[1h])[1d:1s])";
    AtomicBoolean clientGone = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            () -> {
              try {
                engine
                    .withCancellation(clientGone::get)
                    .withTimeout(Duration.ofMinutes(1)) // the signal survives further copies
                    .rangeQuery(storage, query, 0, 24 * HOUR, 1_000);
              } catch (Throwable t) {
                failure.set(t);
              }
            });
    thread.start();
    thread.join(50);
    // The original engine, beside it, is not canceled by the signal.
    clientGone.set(true);
    assertThat(engine.instantQuery(storage, "x", HOUR).value()).isInstanceOf(VectorValue.class);
    thread.join();
    assertThat(failure.get())
        .isInstanceOfSatisfying(
            QueryException.class, e -> assertThat(e.kind()).isEqualTo(QueryException.Kind.CANCELED))
        .hasMessage("query was canceled in expression evaluation");
  }
}
