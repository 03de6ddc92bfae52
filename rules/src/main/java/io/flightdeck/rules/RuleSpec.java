package io.flightdeck.rules;

import java.time.Duration;
import java.util.Map;

/**
 * One rule as written in a rule file: exactly one of {@code record} and {@code alert} is non-null;
 * {@code forDuration} and {@code keepFiringFor} are zero when absent.
 */
public record RuleSpec(
    String record,
    String alert,
    String expr,
    Duration forDuration,
    Duration keepFiringFor,
    Map<String, String> labels,
    Map<String, String> annotations) {

  public RuleSpec {
    labels = Map.copyOf(labels);
    annotations = Map.copyOf(annotations);
  }

  public boolean isAlerting() {
    return alert != null;
  }

  /** The alert name or the recorded metric name. */
  public String name() {
    return alert != null ? alert : record;
  }
}
