package io.flightdeck.promqltest;

import java.util.List;

/** The outcomes of one script's commands, in file order. */
public record ScriptResult(String file, List<Outcome> outcomes) {

  public ScriptResult {
    outcomes = List.copyOf(outcomes);
  }

  public long count(Outcome.Status status) {
    return outcomes.stream().filter(o -> o.status() == status).count();
  }

  public List<Outcome> outcomes(Outcome.Status status) {
    return outcomes.stream().filter(o -> o.status() == status).toList();
  }
}
