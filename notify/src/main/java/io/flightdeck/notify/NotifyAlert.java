package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.util.Objects;

/**
 * One alert as Alertmanager's API v2 receives it. Immutable.
 *
 * @param startsAtMs when the alert became active, epoch milliseconds
 * @param endsAtMs when it resolved or, while firing, until when it is valid; 0 when unknown (then
 *     the receiving side applies its resolve timeout)
 * @param generatorUrl link to the expression that produced the alert; may be empty
 */
public record NotifyAlert(
    Labels labels, Labels annotations, long startsAtMs, long endsAtMs, String generatorUrl) {
  public NotifyAlert {
    Objects.requireNonNull(labels, "labels");
    Objects.requireNonNull(annotations, "annotations");
    generatorUrl = generatorUrl == null ? "" : generatorUrl;
  }

  /** Whether the alert is resolved at {@code nowMs}: its end time has passed. */
  public boolean resolvedAt(long nowMs) {
    return endsAtMs > 0 && endsAtMs <= nowMs;
  }

  NotifyAlert withLabels(Labels newLabels) {
    return new NotifyAlert(newLabels, annotations, startsAtMs, endsAtMs, generatorUrl);
  }

  NotifyAlert withEndsAt(long newEndsAtMs) {
    return new NotifyAlert(labels, annotations, startsAtMs, newEndsAtMs, generatorUrl);
  }

  /** A stable identity of the label set, as hex, for the notification log. */
  String fingerprint() {
    return String.format("%016x", labels.stableHash());
  }
}
