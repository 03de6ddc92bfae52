package io.flightdeck.promqltest;

import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import java.util.List;
import java.util.Set;

/**
 * The extra instant queries the reference runner derives from every {@code eval instant}: the query
 * with {@code @ <eval time>} pinned on each selector and subquery that has no {@code @} yet, run at
 * other evaluation times, must give the same result. Nothing inside a subquery is pinned, since the
 * subquery's own {@code @} already fixes its inner times.
 */
final class AtModifierVariants {
  /** Functions whose value depends on the evaluation time even when their input is pinned. */
  private static final Set<String> TIME_DEPENDENT =
      Set.of(
          "days_in_month",
          "day_of_month",
          "day_of_week",
          "day_of_year",
          "end",
          "hour",
          "minute",
          "month",
          "year",
          "predict_linear",
          "range",
          "start",
          "step",
          "time",
          "timestamp");

  /** One derived query and the time to run it at. */
  record Variant(Expr expr, long timeMs) {}

  private final long pinnedMs;
  private boolean timeDependent;

  private AtModifierVariants(long pinnedMs) {
    this.pinnedMs = pinnedMs;
  }

  /** The variants of {@code expr} evaluated at {@code timeMs}; none if it calls a time function. */
  static List<Variant> of(Expr expr, long timeMs) {
    AtModifierVariants rewriter = new AtModifierVariants(timeMs);
    Expr pinned = rewriter.pin(expr);
    if (rewriter.timeDependent) {
      return List.of();
    }
    List<Long> times =
        timeMs == 0
            ? List.of(-1000L, 0L, 1000L)
            : List.of(-10 * timeMs, 0L, timeMs / 5, timeMs, 10 * timeMs);
    return times.stream().map(t -> new Variant(pinned, t)).toList();
  }

  private Expr pin(Expr expr) {
    return switch (expr) {
      case VectorSelector vs -> pin(vs);
      case MatrixSelector ms ->
          new MatrixSelector(pin(ms.selector()), ms.range(), ms.rangeExpr(), ms.position());
      case SubqueryExpr sq ->
          sq.timestamp() != null
              ? sq
              : new SubqueryExpr(
                  sq.expr(),
                  sq.range(),
                  sq.rangeExpr(),
                  sq.step(),
                  sq.stepExpr(),
                  sq.originalOffset(),
                  sq.originalOffsetExpr(),
                  pinnedMs,
                  null,
                  sq.position());
      case AggregateExpr ae ->
          new AggregateExpr(
              ae.op(),
              pin(ae.expr()),
              ae.param() == null ? null : pin(ae.param()),
              ae.grouping(),
              ae.without(),
              ae.position());
      case BinaryExpr be ->
          new BinaryExpr(
              be.op(), pin(be.lhs()), pin(be.rhs()), be.matching(), be.returnBool(), be.position());
      case Call call -> {
        timeDependent |= TIME_DEPENDENT.contains(call.function().name());
        yield new Call(
            call.function(), call.args().stream().map(this::pin).toList(), call.position());
      }
      case ParenExpr pe -> new ParenExpr(pin(pe.expr()), pe.position());
      case UnaryExpr ue -> new UnaryExpr(ue.op(), pin(ue.expr()), ue.position());
      case NumberLiteral n -> n;
      case StringLiteral s -> s;
    };
  }

  /** A selector's {@code @ start()}/{@code @ end()} is replaced too, as upstream does. */
  private VectorSelector pin(VectorSelector vs) {
    if (vs.timestamp() != null) {
      return vs;
    }
    return new VectorSelector(
        vs.name(),
        vs.matchers(),
        vs.originalOffset(),
        vs.originalOffsetExpr(),
        pinnedMs,
        null,
        vs.anchored(),
        vs.smoothed(),
        vs.position());
  }
}
