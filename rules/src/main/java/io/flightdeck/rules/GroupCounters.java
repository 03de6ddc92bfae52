package io.flightdeck.rules;

/**
 * The running totals of one rule group, exported as Prometheus's {@code prometheus_rule_*}
 * counters. A reload that changes the group carries them over, so they stay monotonic.
 *
 * @param evaluations rule evaluations, one per rule and group iteration
 * @param evaluationFailures rule evaluations that ended unhealthy (query or storage error)
 * @param iterations group evaluations run
 * @param iterationsMissed group evaluation slots skipped because the previous one ran late
 */
public record GroupCounters(
    long evaluations, long evaluationFailures, long iterations, long iterationsMissed) {
  public static final GroupCounters ZERO = new GroupCounters(0, 0, 0, 0);

  GroupCounters evaluated(boolean failed) {
    return new GroupCounters(
        evaluations + 1, evaluationFailures + (failed ? 1 : 0), iterations, iterationsMissed);
  }

  GroupCounters iterated() {
    return new GroupCounters(evaluations, evaluationFailures, iterations + 1, iterationsMissed);
  }

  GroupCounters missed(long slots) {
    return new GroupCounters(evaluations, evaluationFailures, iterations, iterationsMissed + slots);
  }
}
