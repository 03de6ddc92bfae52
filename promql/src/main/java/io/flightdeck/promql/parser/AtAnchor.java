package io.flightdeck.promql.parser;

/**
 * The query-relative instants an {@code @} modifier may name: {@code @ start()}, {@code @ end()}.
 */
public enum AtAnchor {
  START,
  END
}
