package io.flightdeck.promql.engine;

/**
 * The result of a PromQL evaluation: an instant vector, a range matrix, a scalar or a string, as in
 * the {@code resultType} of Prometheus's query API.
 */
public sealed interface QueryValue permits VectorValue, MatrixValue, ScalarValue, StringValue {

  /**
   * The API's {@code resultType}: {@code vector}, {@code matrix}, {@code scalar} or {@code string}.
   */
  String resultType();
}
