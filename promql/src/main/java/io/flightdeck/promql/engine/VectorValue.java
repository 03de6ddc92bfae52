package io.flightdeck.promql.engine;

import java.util.List;

/** An instant vector: at most one sample per label set, all at the evaluation time. */
public record VectorValue(List<Sample> samples) implements QueryValue {
  public VectorValue {
    samples = List.copyOf(samples);
  }

  @Override
  public String resultType() {
    return "vector";
  }
}
