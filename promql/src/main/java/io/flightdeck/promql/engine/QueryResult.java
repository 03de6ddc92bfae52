package io.flightdeck.promql.engine;

import java.util.List;

/**
 * A successful evaluation: the value plus Prometheus's annotations ({@code warnings} such as a
 * missing {@code le} label, {@code infos} such as {@code rate} over a metric not named like a
 * counter) and the query's cost.
 */
public record QueryResult(
    QueryValue value, List<String> warnings, List<String> infos, QueryStats stats) {
  public QueryResult {
    warnings = List.copyOf(warnings);
    infos = List.copyOf(infos);
  }
}
