package io.flightdeck.promql.engine;

import java.util.List;

/** A matrix: series with points over time, the result of a range query or a range selector. */
public record MatrixValue(List<RangeSeries> series) implements QueryValue {
  public MatrixValue {
    series = List.copyOf(series);
  }

  @Override
  public String resultType() {
    return "matrix";
  }
}
