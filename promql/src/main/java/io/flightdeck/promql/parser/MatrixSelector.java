package io.flightdeck.promql.parser;

import java.time.Duration;

/**
 * A range vector selector {@code selector[range]}. Its offset and {@code @} modifiers live on the
 * inner selector. {@code range} is zero when the range is a duration expression ({@code
 * rangeExpr}).
 */
public record MatrixSelector(
    VectorSelector selector, Duration range, DurationExpr rangeExpr, PositionRange position)
    implements Expr {

  @Override
  public ValueType type() {
    return ValueType.MATRIX;
  }

  MatrixSelector withSelector(VectorSelector newSelector, int newEnd) {
    return new MatrixSelector(
        newSelector, range, rangeExpr, new PositionRange(position.start(), newEnd));
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
