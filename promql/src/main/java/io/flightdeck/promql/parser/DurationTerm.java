package io.flightdeck.promql.parser;

/**
 * A duration in a range ({@code [5m]}), a subquery step or an {@code offset}: a number literal (in
 * seconds) or an arithmetic duration expression evaluated per query.
 */
public sealed interface DurationTerm permits NumberLiteral, DurationExpr {
  PositionRange position();
}
