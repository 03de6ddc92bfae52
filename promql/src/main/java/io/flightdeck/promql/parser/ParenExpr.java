package io.flightdeck.promql.parser;

/** Parentheses, kept in the tree so that printing reproduces the grouping that was written. */
public record ParenExpr(Expr expr, PositionRange position) implements Expr {

  @Override
  public ValueType type() {
    return expr.type();
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
