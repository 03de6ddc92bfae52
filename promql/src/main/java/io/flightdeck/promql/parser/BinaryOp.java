package io.flightdeck.promql.parser;

/** The binary operators, each with the text PromQL writes it as. */
public enum BinaryOp {
  ADD("+"),
  SUB("-"),
  MUL("*"),
  DIV("/"),
  MOD("%"),
  POW("^"),
  ATAN2("atan2"),
  EQL("=="),
  NEQ("!="),
  GTR(">"),
  LSS("<"),
  GTE(">="),
  LTE("<="),
  /** Native histograms: drops observations above the threshold ({@code </}). */
  TRIM_UPPER("</"),
  /** Native histograms: drops observations below the threshold ({@code >/}). */
  TRIM_LOWER(">/"),
  AND("and"),
  OR("or"),
  UNLESS("unless");

  private final String symbol;

  BinaryOp(String symbol) {
    this.symbol = symbol;
  }

  public String symbol() {
    return symbol;
  }

  /** Comparisons filter unless {@code bool} is given; the histogram trims are not comparisons. */
  public boolean isComparison() {
    return switch (this) {
      case EQL, NEQ, GTR, LSS, GTE, LTE -> true;
      default -> false;
    };
  }

  public boolean isSetOperator() {
    return this == AND || this == OR || this == UNLESS;
  }
}
