package io.flightdeck.demo;

import io.flightdeck.promql.PromQL;
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
import io.flightdeck.promql.parser.UnaryOp;
import io.flightdeck.promql.parser.VectorSelector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Compresses the time in a PromQL expression by {@code speed}: every range ({@code [10m]}), offset,
 * subquery range and step is divided by it, and so is the horizon of {@code predict_linear}
 * (seconds given as a number). The result is the expression printed back in canonical form.
 * Thresholds are left alone: they compare counts, ratios and signs, which the compression keeps,
 * since the demo's counters advance by their rate times real seconds.
 */
final class DurationScaler {
  private final double speed;

  DurationScaler(double speed) {
    if (!(speed > 0)) {
      throw new IllegalArgumentException("speed must be greater than 0, got " + speed);
    }
    this.speed = speed;
  }

  String scale(String expr) {
    return scale(PromQL.parse(expr)).toString();
  }

  Duration scale(Duration d) {
    if (d.isZero()) {
      return d;
    }
    return Duration.ofMillis(Math.max(1, Math.round(d.toMillis() / speed)));
  }

  private Expr scale(Expr e) {
    return switch (e) {
      case AggregateExpr a ->
          new AggregateExpr(
              a.op(),
              scale(a.expr()),
              a.param() == null ? null : scale(a.param()),
              a.grouping(),
              a.without(),
              a.position());
      case BinaryExpr b ->
          new BinaryExpr(
              b.op(), scale(b.lhs()), scale(b.rhs()), b.matching(), b.returnBool(), b.position());
      case Call c -> scaleCall(c);
      case MatrixSelector m -> {
        noExpression(m.rangeExpr(), m);
        yield new MatrixSelector(selector(m.selector()), scale(m.range()), null, m.position());
      }
      case ParenExpr p -> new ParenExpr(scale(p.expr()), p.position());
      case UnaryExpr u -> new UnaryExpr(u.op(), scale(u.expr()), u.position());
      case SubqueryExpr s -> {
        noExpression(s.rangeExpr(), s);
        noExpression(s.stepExpr(), s);
        noExpression(s.originalOffsetExpr(), s);
        yield new SubqueryExpr(
            scale(s.expr()),
            scale(s.range()),
            null,
            scale(s.step()),
            null,
            scale(s.originalOffset()),
            null,
            s.timestamp(),
            s.atAnchor(),
            s.position());
      }
      case VectorSelector v -> selector(v);
      case NumberLiteral n -> n;
      case StringLiteral s -> s;
    };
  }

  private VectorSelector selector(VectorSelector v) {
    noExpression(v.originalOffsetExpr(), v);
    return new VectorSelector(
        v.name(),
        v.matchers(),
        scale(v.originalOffset()),
        null,
        v.timestamp(),
        v.atAnchor(),
        v.anchored(),
        v.smoothed(),
        v.position());
  }

  private Expr scaleCall(Call c) {
    List<Expr> args = new ArrayList<>();
    for (Expr arg : c.args()) {
      args.add(scale(arg));
    }
    if (c.function().name().equals("predict_linear")) {
      Expr horizon = args.get(1);
      args.set(1, new NumberLiteral(constant(horizon) / speed, false, horizon.position()));
    }
    return new Call(c.function(), args, c.position());
  }

  /** The value of a constant number expression such as {@code 4 * 3600}. */
  private static double constant(Expr e) {
    return switch (e) {
      case NumberLiteral n -> n.value();
      case ParenExpr p -> constant(p.expr());
      case UnaryExpr u -> u.op() == UnaryOp.MINUS ? -constant(u.expr()) : constant(u.expr());
      case BinaryExpr b ->
          switch (b.op()) {
            case ADD -> constant(b.lhs()) + constant(b.rhs());
            case SUB -> constant(b.lhs()) - constant(b.rhs());
            case MUL -> constant(b.lhs()) * constant(b.rhs());
            case DIV -> constant(b.lhs()) / constant(b.rhs());
            default -> throw notConstant(e);
          };
      default -> throw notConstant(e);
    };
  }

  private static IllegalArgumentException notConstant(Expr e) {
    return new IllegalArgumentException(
        "cannot compress time in \"" + e + "\": predict_linear's horizon must be a number");
  }

  private static void noExpression(Object durationExpr, Expr where) {
    if (durationExpr != null) {
      throw new IllegalArgumentException(
          "cannot compress time in \"" + where + "\": duration expressions are not supported");
    }
  }
}
