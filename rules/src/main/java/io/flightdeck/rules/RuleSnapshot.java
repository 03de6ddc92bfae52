package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;

/**
 * One rule as the API shows it. For recording rules {@code forSeconds}, {@code
 * keepFiringForSeconds}, {@code annotations} and {@code alerts} are empty and {@code state} is
 * inactive; {@code alerts} holds the pending and firing alerts (resolved ones are left out, as in
 * Prometheus). {@code lastEvaluationMs} is 0 before the first evaluation.
 */
public record RuleSnapshot(
    Type type,
    String name,
    String query,
    double forSeconds,
    double keepFiringForSeconds,
    Labels labels,
    Map<String, String> annotations,
    AlertState state,
    List<Alert> alerts,
    RuleHealth health,
    String lastError,
    double evaluationTimeSeconds,
    long lastEvaluationMs) {

  public RuleSnapshot {
    annotations = Map.copyOf(annotations);
    alerts = List.copyOf(alerts);
  }

  public enum Type {
    ALERTING,
    RECORDING
  }
}
