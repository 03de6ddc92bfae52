package io.flightdeck.promql.parser;

/**
 * Duration arithmetic, evaluated per query because {@code step()} and {@code range()} depend on
 * it. Shapes: {@code step()}/{@code range()} have no operands; a sign has only {@code rhs} ({@code
 * -step()}); {@code min_of}/{@code max_of} and the arithmetic operators have both. {@code wrapped}
 * records parentheses written around it, so printing reproduces them.
 */
public record DurationExpr(
    DurationOp op, DurationTerm lhs, DurationTerm rhs, boolean wrapped, int start, int end)
    implements DurationTerm {

  @Override
  public PositionRange position() {
    if (lhs == null && rhs == null) {
      return new PositionRange(start, end);
    }
    if (lhs == null) {
      return new PositionRange(start, rhs.position().end());
    }
    return PositionRange.merge(lhs.position(), rhs.position());
  }

  DurationExpr wrap() {
    return new DurationExpr(op, lhs, rhs, true, start, end);
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
