package io.flightdeck.api;

import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;

/**
 * The step at which a chart's expression is evaluated: four evaluations per bucket, or two when
 * every selector of the expression sits in a range function whose window spans at least that step
 * ({@code rate(x[2m])} on a day's chart: 43 s steps). Such windows overlap, so every stored sample
 * still falls in an evaluated window and each bucket's min and max still see it, at half the cost;
 * an instant selector ({@code a - b}) reads one sample per step and keeps the finer step.
 */
final class CockpitEvaluationStep {
  static final long MIN_STEP_MS = 1000;

  private CockpitEvaluationStep() {}

  static long of(Expr expr, long spanMs, int width) {
    long coarse = Math.max(MIN_STEP_MS, spanMs / (2L * width));
    long windows = shortestWindow(expr);
    if (windows >= coarse) {
      return coarse;
    }
    return Math.max(MIN_STEP_MS, spanMs / (4L * width));
  }

  /**
   * The shortest range-function window of {@code expr} in ms; 0 when it has an instant selector, a
   * subquery or anything else that reads samples outside a fixed window; Long.MAX_VALUE when it
   * reads no samples at all.
   */
  private static long shortestWindow(Expr expr) {
    return switch (expr) {
      case MatrixSelector matrix -> matrix.rangeExpr() == null ? matrix.range().toMillis() : 0;
      case VectorSelector selector -> 0;
      case NumberLiteral number -> Long.MAX_VALUE;
      case StringLiteral string -> Long.MAX_VALUE;
      case ParenExpr paren -> shortestWindow(paren.expr());
      case UnaryExpr unary -> shortestWindow(unary.expr());
      case BinaryExpr binary ->
          Math.min(shortestWindow(binary.lhs()), shortestWindow(binary.rhs()));
      case AggregateExpr aggregate ->
          Math.min(
              shortestWindow(aggregate.expr()),
              aggregate.param() == null ? Long.MAX_VALUE : shortestWindow(aggregate.param()));
      case Call call -> {
        long shortest = Long.MAX_VALUE;
        for (Expr arg : call.args()) {
          shortest = Math.min(shortest, shortestWindow(arg));
        }
        yield shortest;
      }
      default -> 0;
    };
  }
}
