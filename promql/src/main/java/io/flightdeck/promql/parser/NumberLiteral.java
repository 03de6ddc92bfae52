package io.flightdeck.promql.parser;

/**
 * A number. {@code duration} is set when it was written as a duration ({@code 5m}); its value is
 * then in seconds, and it prints as a duration again.
 */
public record NumberLiteral(double value, boolean duration, PositionRange position)
    implements Expr, DurationTerm {

  @Override
  public ValueType type() {
    return ValueType.SCALAR;
  }

  /** The literal with a sign applied, starting at the sign. */
  NumberLiteral signed(UnaryOp sign, int start) {
    double signedValue = sign == UnaryOp.MINUS ? -value : value;
    return new NumberLiteral(signedValue, duration, new PositionRange(start, position.end()));
  }

  @Override
  public String toString() {
    return Printer.print((Expr) this);
  }
}
