package io.flightdeck.promql.parser;

/**
 * Duration arithmetic, evaluated per query because {@code step()} and {@code range()} depend on it.
 * Shapes: {@code step()}/{@code range()} have no operands; a sign has only {@code rhs} ({@code
 * -step()}); {@code min_of}/{@code max_of} and the arithmetic operators have both. {@code wrapped}
 * records parentheses written around it, so printing reproduces them.
 */
public record DurationExpr(
    DurationOp op, DurationTerm lhs, DurationTerm rhs, boolean wrapped, PositionRange position)
    implements DurationTerm {

  /** {@code step()} or {@code range()}. */
  static DurationExpr function(DurationOp op, PositionRange position) {
    return new DurationExpr(op, null, null, false, position);
  }

  /** A sign before a duration expression, spanning from the sign. */
  static DurationExpr signed(DurationOp sign, int start, DurationTerm operand) {
    return new DurationExpr(
        sign, null, operand, false, new PositionRange(start, operand.position().end()));
  }

  /** Arithmetic, {@code min_of} or {@code max_of}; like Prometheus, spans the operands only. */
  static DurationExpr binary(DurationOp op, DurationTerm lhs, DurationTerm rhs) {
    return new DurationExpr(
        op, lhs, rhs, false, PositionRange.merge(lhs.position(), rhs.position()));
  }

  DurationExpr wrap() {
    return new DurationExpr(op, lhs, rhs, true, position);
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
