package io.flightdeck.promql.parser;

import java.util.List;

/**
 * How a binary operation between two instant vectors pairs up series: on or ignoring which labels,
 * with which cardinality, and which labels {@code group_left}/{@code group_right} copy over. {@code
 * fillLhs} and {@code fillRhs} ({@code fill_left}, {@code fill_right}; null when absent) stand in
 * for a missing series of that side; with grouping, the left is the "many" side and the right the
 * "one" side, as in Prometheus.
 */
public record VectorMatching(
    Cardinality cardinality,
    List<String> matchingLabels,
    boolean on,
    List<String> include,
    Double fillLhs,
    Double fillRhs) {

  public VectorMatching {
    matchingLabels = List.copyOf(matchingLabels);
    include = List.copyOf(include);
  }

  public boolean hasFill() {
    return fillLhs != null || fillRhs != null;
  }

  VectorMatching withCardinality(Cardinality newCardinality) {
    return new VectorMatching(newCardinality, matchingLabels, on, include, fillLhs, fillRhs);
  }
}
