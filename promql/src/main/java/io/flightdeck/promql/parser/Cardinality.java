package io.flightdeck.promql.parser;

/** How the series of the two sides of a binary operation between vectors are matched. */
public enum Cardinality {
  ONE_TO_ONE,
  /** {@code group_left}: many series on the left per series on the right. */
  MANY_TO_ONE,
  /** {@code group_right}. */
  ONE_TO_MANY,
  /** Set operators ({@code and}, {@code or}, {@code unless}). */
  MANY_TO_MANY
}
