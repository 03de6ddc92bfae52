package io.flightdeck.promql.parser;

/** The sign operators that may precede a scalar or an instant vector. */
public enum UnaryOp {
  PLUS("+"),
  MINUS("-");

  private final String symbol;

  UnaryOp(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
