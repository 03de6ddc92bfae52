package io.flightdeck.promql.parser;

/**
 * A binary operation. {@code matching} is null unless both sides are instant vectors; set operators
 * always match many-to-many. {@code returnBool} is the {@code bool} modifier of comparisons.
 */
public record BinaryExpr(
    BinaryOp op,
    Expr lhs,
    Expr rhs,
    VectorMatching matching,
    boolean returnBool,
    PositionRange position)
    implements Expr {

  @Override
  public ValueType type() {
    return lhs.type() == ValueType.SCALAR && rhs.type() == ValueType.SCALAR
        ? ValueType.SCALAR
        : ValueType.VECTOR;
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
