package io.flightdeck.promql.engine;

/** A scalar result at a timestamp (ms). */
public record ScalarValue(long timestamp, double value) implements QueryValue {
  @Override
  public String resultType() {
    return "scalar";
  }
}
