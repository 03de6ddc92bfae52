package io.flightdeck.promql.parser;

import java.util.stream.Collectors;

/** A tree as a compact S-expression, to state how a query groups: {@code (+ 1 (* 2 3))}. */
final class Shape {
  private Shape() {}

  static String of(Expr expr) {
    return switch (expr) {
      case BinaryExpr e -> "(" + e.op().symbol() + " " + of(e.lhs()) + " " + of(e.rhs()) + ")";
      case UnaryExpr e -> "(" + e.op().symbol() + " " + of(e.expr()) + ")";
      case ParenExpr e -> "[" + of(e.expr()) + "]";
      case AggregateExpr e ->
          "("
              + e.op().keyword()
              + (e.param() == null ? "" : " " + of(e.param()))
              + " "
              + of(e.expr())
              + ")";
      case Call e ->
          "("
              + e.function().name()
              + e.args().stream().map(a -> " " + of(a)).collect(Collectors.joining())
              + ")";
      case SubqueryExpr e -> "(subquery " + of(e.expr()) + ")";
      default -> expr.toString();
    };
  }
}
