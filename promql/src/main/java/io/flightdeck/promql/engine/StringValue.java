package io.flightdeck.promql.engine;

/** A string result at a timestamp (ms). */
public record StringValue(long timestamp, String value) implements QueryValue {
  @Override
  public String resultType() {
    return "string";
  }
}
