package io.flightdeck.promql.parser;

/**
 * Where a node or an error sits in the query: byte offsets into the query's UTF-8 encoding, start
 * inclusive and end exclusive, as Prometheus counts them (so error positions match its messages).
 */
public record PositionRange(int start, int end) {

  static PositionRange merge(PositionRange first, PositionRange last) {
    return new PositionRange(first.start(), last.end());
  }
}
