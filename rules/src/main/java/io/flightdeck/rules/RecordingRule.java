package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Sample;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Records an expression's result under a new metric name and extra labels. */
final class RecordingRule extends Rule {
  RecordingRule(RuleSpec spec, Map<String, String> labels) {
    super(spec, labels);
  }

  @Override
  List<Sample> eval(RuleContext context, long ts, long queryOffsetMs, int limit) {
    long at = ts - queryOffsetMs;
    List<Sample> result = context.query().query(expr, at);
    List<Sample> out = new ArrayList<>(result.size());
    Set<Labels> seen = new HashSet<>();
    for (Sample s : result) {
      Labels.Builder b = s.labels().toBuilder();
      b.set(Labels.METRIC_NAME, spec.record());
      labels.forEach(b::set);
      Labels l = b.build();
      if (!seen.add(l)) {
        throw new IllegalStateException(
            "vector contains metrics with the same labelset after applying rule labels");
      }
      out.add(new Sample(l, at, s.value()));
    }
    if (limit > 0 && out.size() > limit) {
      throw new IllegalStateException(
          "exceeded limit %d with %d series".formatted(limit, out.size()));
    }
    return out;
  }

  @Override
  RuleSnapshot snapshot() {
    return new RuleSnapshot(
        RuleSnapshot.Type.RECORDING,
        name(),
        expr.toString(),
        0,
        0,
        Labels.fromMap(labels),
        Map.of(),
        AlertState.INACTIVE,
        List.of(),
        health,
        lastError,
        evaluationNanos / 1e9,
        lastEvaluationMs);
  }
}
