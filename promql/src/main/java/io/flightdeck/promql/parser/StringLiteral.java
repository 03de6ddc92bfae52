package io.flightdeck.promql.parser;

/**
 * A string, unquoted. Bytes that were escaped into the literal but are not valid UTF-8 ({@code
 * "\xc5"}) are kept as the lone surrogates U+DC80 to U+DCFF, so they can be reported and printed
 * back as the bytes they were.
 */
public record StringLiteral(String value, PositionRange position) implements Expr {

  @Override
  public ValueType type() {
    return ValueType.STRING;
  }

  @Override
  public String toString() {
    return Printer.print(this);
  }
}
