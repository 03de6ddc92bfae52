package io.flightdeck.promql.engine;

import io.flightdeck.promql.parser.DurationExpr;
import io.flightdeck.promql.parser.DurationTerm;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import java.time.Duration;

/**
 * Offsets, ranges and steps in milliseconds, written either as durations or as duration expressions
 * ({@code [step()*2]}), which depend on the query's step and range.
 */
final class Durations {
  private Durations() {}

  static long offsetMs(VectorSelector vs, QueryContext ctx) {
    return ms(vs.originalOffset(), vs.originalOffsetExpr(), ctx, true);
  }

  static long offsetMs(SubqueryExpr sq, QueryContext ctx) {
    return ms(sq.originalOffset(), sq.originalOffsetExpr(), ctx, true);
  }

  static long rangeMs(MatrixSelector m, QueryContext ctx) {
    return ms(m.range(), m.rangeExpr(), ctx, false);
  }

  static long rangeMs(SubqueryExpr sq, QueryContext ctx) {
    return ms(sq.range(), sq.rangeExpr(), ctx, false);
  }

  static long stepMs(SubqueryExpr sq, QueryContext ctx) {
    if (sq.stepExpr() == null && sq.step().isZero()) {
      return ctx.options.defaultSubqueryStep().toMillis();
    }
    return ms(sq.step(), sq.stepExpr(), ctx, false);
  }

  private static long ms(Duration literal, DurationExpr expr, QueryContext ctx, boolean negative) {
    if (expr == null) {
      return literal.toMillis();
    }
    double seconds = evaluate(expr, ctx);
    String where = expr.position().start() + ":" + expr.position().end() + ": ";
    if (Double.isNaN(seconds) || Double.isInfinite(seconds)) {
      throw badData(where + "duration is NaN or infinite");
    }
    if (seconds <= 0 && !negative) {
      throw badData(where + "duration must be greater than 0");
    }
    if (Math.abs(seconds) > 0x1p63 / 1e9) {
      throw badData(where + "duration is out of range");
    }
    return (long) (seconds * 1000);
  }

  private static double evaluate(DurationTerm term, QueryContext ctx) {
    if (term instanceof NumberLiteral n) {
      return n.value();
    }
    DurationExpr e = (DurationExpr) term;
    double lhs = e.lhs() == null ? 0 : evaluate(e.lhs(), ctx);
    double rhs = e.rhs() == null ? 0 : evaluate(e.rhs(), ctx);
    String where = e.position().start() + ":" + e.position().end() + ": ";
    return switch (e.op()) {
      case STEP -> ctx.queryStep / 1000.0;
      case RANGE -> (ctx.queryEnd - ctx.queryStart) / 1000.0;
      case MIN_OF -> Math.min(lhs, rhs);
      case MAX_OF -> Math.max(lhs, rhs);
      case ADD -> e.lhs() == null ? rhs : lhs + rhs;
      case SUB -> e.lhs() == null ? -rhs : lhs - rhs;
      case MUL -> lhs * rhs;
      case DIV -> {
        if (rhs == 0) {
          throw badData(where + "division by zero");
        }
        yield lhs / rhs;
      }
      case MOD -> {
        if (rhs == 0) {
          throw badData(where + "modulo by zero");
        }
        yield lhs % rhs;
      }
      case POW -> Math.pow(lhs, rhs);
    };
  }

  private static QueryException badData(String message) {
    return new QueryException(QueryException.Kind.BAD_DATA, message);
  }
}
