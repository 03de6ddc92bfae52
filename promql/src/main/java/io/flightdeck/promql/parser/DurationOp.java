package io.flightdeck.promql.parser;

/** The operations of a duration expression ({@code [5m * 2]}, {@code offset -step()}). */
public enum DurationOp {
  ADD("+"),
  SUB("-"),
  MUL("*"),
  DIV("/"),
  MOD("%"),
  POW("^"),
  /** {@code step()}: the query step (0 for instant queries). */
  STEP("step"),
  /** {@code range()}: end minus start of the query (0 for instant queries). */
  RANGE("range"),
  MIN_OF("min_of"),
  MAX_OF("max_of");

  private final String symbol;

  DurationOp(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }
}
