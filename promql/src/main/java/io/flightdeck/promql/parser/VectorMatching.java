package io.flightdeck.promql.parser;

import java.util.List;

/**
 * How a binary operation between two instant vectors pairs up series: on or ignoring which labels,
 * with which cardinality, and which labels {@code group_left}/{@code group_right} copy over.
 */
public record VectorMatching(
    Cardinality cardinality, List<String> matchingLabels, boolean on, List<String> include) {

  public VectorMatching {
    matchingLabels = List.copyOf(matchingLabels);
    include = List.copyOf(include);
  }

  VectorMatching withCardinality(Cardinality newCardinality) {
    return new VectorMatching(newCardinality, matchingLabels, on, include);
  }
}
