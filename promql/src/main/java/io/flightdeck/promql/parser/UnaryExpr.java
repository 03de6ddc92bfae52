package io.flightdeck.promql.parser;

/** A sign applied to a scalar or instant vector that is not a plain number literal. */
public record UnaryExpr(UnaryOp op, Expr expr, PositionRange position) implements Expr {

  @Override
  public ValueType type() {
    return expr.type();
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
