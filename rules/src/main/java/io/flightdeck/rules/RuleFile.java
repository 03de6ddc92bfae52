package io.flightdeck.rules;

import java.util.List;

/** A parsed and validated rule file; {@code file} is the name errors and the API show. */
public record RuleFile(String file, List<RuleGroupSpec> groups) {
  public RuleFile {
    groups = List.copyOf(groups);
  }

  public int ruleCount() {
    return groups.stream().mapToInt(g -> g.rules().size()).sum();
  }
}
