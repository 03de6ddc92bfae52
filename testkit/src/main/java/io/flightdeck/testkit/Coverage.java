package io.flightdeck.testkit;

import java.util.Map;

/**
 * How many of a property's cases the body {@linkplain Inputs#classify classified} under a label.
 */
public record Coverage(int cases, Map<String, Integer> counts) {
  public Coverage {
    counts = Map.copyOf(counts);
  }

  public int count(String label) {
    return counts.getOrDefault(label, 0);
  }

  /** The share of the cases under {@code label}, in percent. */
  public double percentage(String label) {
    return cases == 0 ? 0 : 100.0 * count(label) / cases;
  }
}
