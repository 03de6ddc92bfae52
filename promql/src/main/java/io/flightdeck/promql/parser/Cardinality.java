package io.flightdeck.promql.parser;

/** How the series of the two sides of a binary operation between vectors are matched. */
public enum Cardinality {
  ONE_TO_ONE("one-to-one"),
  /** {@code group_left}: many series on the left per series on the right. */
  MANY_TO_ONE("many-to-one"),
  /** {@code group_right}. */
  ONE_TO_MANY("one-to-many"),
  /** Set operators ({@code and}, {@code or}, {@code unless}). */
  MANY_TO_MANY("many-to-many");

  private final String description;

  Cardinality(String description) {
    this.description = description;
  }

  /** The wording Prometheus uses in matching errors ("many-to-one"). */
  public String description() {
    return description;
  }
}
