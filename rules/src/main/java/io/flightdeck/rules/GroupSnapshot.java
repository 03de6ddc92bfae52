package io.flightdeck.rules;

import java.util.List;

/**
 * One rule group as the API and the self-metrics show it; {@code lastEvaluationMs} is 0 before the
 * first run.
 */
public record GroupSnapshot(
    String name,
    String file,
    double intervalSeconds,
    int limit,
    List<RuleSnapshot> rules,
    double evaluationTimeSeconds,
    long lastEvaluationMs,
    GroupCounters counters) {

  public GroupSnapshot {
    rules = List.copyOf(rules);
  }
}
