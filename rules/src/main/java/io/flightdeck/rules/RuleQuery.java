package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.VectorValue;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.storage.Queryable;
import java.util.List;

/**
 * The function seam through which rules query: an instant query returning a vector. Implementations
 * must be thread-safe; groups evaluate concurrently.
 */
@FunctionalInterface
public interface RuleQuery {
  /**
   * Evaluates {@code expr} at {@code timeMs}.
   *
   * @throws RuntimeException when the query fails; the rule becomes unhealthy with its message
   */
  List<Sample> query(Expr expr, long timeMs);

  /**
   * Queries through our engine, as Prometheus's EngineQueryFunc does: a scalar becomes a one-sample
   * vector without labels; any other type is an error.
   */
  static RuleQuery engine(Engine engine, Queryable storage) {
    return (expr, timeMs) -> {
      QueryValue value = engine.instantQuery(storage, expr, timeMs).value();
      return switch (value) {
        case VectorValue v -> v.samples();
        case ScalarValue s -> List.of(new Sample(Labels.EMPTY, s.timestamp(), s.value()));
        default -> throw new IllegalStateException("rule result is not a vector or scalar");
      };
    };
  }
}
