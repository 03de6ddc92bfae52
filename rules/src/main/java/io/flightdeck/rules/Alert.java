package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import java.util.Map;

/**
 * A snapshot of one alert of an alerting rule. Times are Unix milliseconds; 0 means "not set" (Go's
 * zero time in Prometheus). {@code labels} include {@code alertname}. A notifier sends {@code
 * startsAt = activeAt} and {@code endsAt = resolvedAt} when resolved, else {@code validUntil}, as
 * Prometheus does towards Alertmanager.
 */
public record Alert(
    Labels labels,
    Map<String, String> annotations,
    AlertState state,
    double value,
    long activeAtMs,
    long firedAtMs,
    long resolvedAtMs,
    long lastSentAtMs,
    long validUntilMs,
    long keepFiringSinceMs) {

  public Alert {
    annotations = Map.copyOf(annotations);
  }

  public boolean isResolved() {
    return resolvedAtMs != 0;
  }
}
