package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.parser.Expr;
import java.util.List;
import java.util.Map;

/**
 * A recording or alerting rule with its health. Guarded by the owning group's lock: evaluation and
 * snapshots never run at the same time.
 */
abstract sealed class Rule permits AlertingRule, RecordingRule {
  final RuleSpec spec;
  final Expr expr;

  /** Rule labels over group labels, still unexpanded for alerting rules. */
  final Map<String, String> labels;

  RuleHealth health = RuleHealth.UNKNOWN;
  String lastError = "";
  long lastEvaluationMs;
  long evaluationNanos;

  Rule(RuleSpec spec, Map<String, String> labels) {
    this.spec = spec;
    this.expr = PromQL.parse(spec.expr());
    this.labels = Map.copyOf(labels);
  }

  String name() {
    return spec.name();
  }

  /** The samples to write back (recorded series, or ALERTS and ALERTS_FOR_STATE). */
  abstract List<Sample> eval(RuleContext context, long ts, long queryOffsetMs, int limit);

  abstract RuleSnapshot snapshot();

  /** Identity used to carry state across a reload: name and labels, as Prometheus does. */
  String identity() {
    return name() + Labels.fromMap(labels);
  }
}
