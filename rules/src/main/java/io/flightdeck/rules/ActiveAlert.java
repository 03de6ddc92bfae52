package io.flightdeck.rules;

import io.flightdeck.model.Labels;
import java.util.Map;

/** The mutable state of one alert inside its rule; guarded by the rule group's lock. */
final class ActiveAlert {
  Labels labels;
  Map<String, String> annotations;
  AlertState state;
  double value;
  long activeAt;
  long firedAt;
  long resolvedAt;
  long lastSentAt;
  long validUntil;
  long keepFiringSince;

  ActiveAlert(Labels labels, Map<String, String> annotations, double value, long activeAt) {
    this.labels = labels;
    this.annotations = annotations;
    this.value = value;
    this.activeAt = activeAt;
    this.state = AlertState.PENDING;
  }

  /** Prometheus's needsSending: never pending; again after a resolve, or after the resend delay. */
  boolean needsSending(long ts, long resendDelay) {
    if (state == AlertState.PENDING) {
      return false;
    }
    if (resolvedAt > lastSentAt) {
      return true;
    }
    return lastSentAt + resendDelay < ts;
  }

  Alert snapshot() {
    return new Alert(
        labels,
        annotations,
        state,
        value,
        activeAt,
        firedAt,
        resolvedAt,
        lastSentAt,
        validUntil,
        keepFiringSince);
  }
}
