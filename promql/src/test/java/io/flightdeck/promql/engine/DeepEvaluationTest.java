package io.flightdeck.promql.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.parser.Expr;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A query nested as deeply as the parser allows evaluates on a default 1 MiB stack, and one that
 * runs out of stack anyway (a caller deep in its own stack) fails as a bad query, not as an error.
 */
class DeepEvaluationTest {
  private final InMemoryStorage storage =
      new InMemoryStorage().add(Labels.of("__name__", "x"), 10, 15_000, i -> i);
  private final Engine engine = new Engine(EngineOptions.DEFAULT);

  @Test
  void deepestAcceptedQueriesEvaluateOnADefaultStack() throws Exception {
    String[] queries = {
      "(".repeat(998) + "x" + ")".repeat(998),
      "abs(".repeat(498) + "x" + ")".repeat(498),
      "-".repeat(998) + "x",
      "x" + " + x".repeat(998),
    };
    for (String query : queries) {
      Expr expr = PromQL.parse(query);
      Throwable failure =
          onStack(1024 * 1024, () -> engine.rangeQuery(storage, expr, 0, 60_000, 15_000));
      assertThat(failure).as(query.substring(0, 20)).isNull();
    }
  }

  @Test
  void runningOutOfStackIsABadQuery() throws Exception {
    Expr expr = PromQL.parse("abs(".repeat(498) + "x" + ")".repeat(498));
    Throwable failure = onStack(64 * 1024, () -> engine.instantQuery(storage, expr, 60_000));
    assertThat(failure).isInstanceOf(QueryException.class).hasMessageContaining("nests too deeply");
    assertThat(((QueryException) failure).kind()).isEqualTo(QueryException.Kind.BAD_DATA);
    // The engine's slot was given back: the same engine still answers.
    assertThat(engine.instantQuery(storage, "x", 60_000).value()).isInstanceOf(VectorValue.class);
  }

  private static Throwable onStack(long bytes, Runnable work) throws InterruptedException {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Thread thread =
        new Thread(
            null,
            () -> {
              try {
                work.run();
              } catch (Throwable t) {
                failure.set(t);
              }
            },
            "stack-" + bytes,
            bytes);
    thread.start();
    thread.join();
    return failure.get();
  }
}
