package io.flightdeck.rules;

import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * One group as written in a rule file.
 *
 * @param interval the group's own interval, or null to use the manager's default
 * @param queryOffset the group's own query offset, or null to use the manager's default
 * @param limit the most alerts or series a rule may produce; 0 for no limit
 */
public record RuleGroupSpec(
    String name,
    Duration interval,
    Duration queryOffset,
    int limit,
    Map<String, String> labels,
    List<RuleSpec> rules) {

  public RuleGroupSpec {
    labels = Map.copyOf(labels);
    rules = List.copyOf(rules);
  }
}
