package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.util.List;

/**
 * What one integration is asked to deliver: the alerts of a group at {@code nowMs}, sorted by
 * labels.
 *
 * @param externalUrl Flightdeck's external URL, without a trailing slash; may be empty
 */
record Notification(
    String receiver,
    String groupKey,
    Labels groupLabels,
    List<NotifyAlert> alerts,
    long nowMs,
    String externalUrl) {
  Notification {
    alerts = List.copyOf(alerts);
  }

  long firingCount() {
    return alerts.stream().filter(a -> !a.resolvedAt(nowMs)).count();
  }

  /** {@code firing} while any alert fires, else {@code resolved}. */
  String status() {
    return firingCount() > 0 ? "firing" : "resolved";
  }

  String alertStatus(NotifyAlert alert) {
    return alert.resolvedAt(nowMs) ? "resolved" : "firing";
  }

  Labels commonLabels() {
    return common(alerts.stream().map(NotifyAlert::labels).toList());
  }

  Labels commonAnnotations() {
    return common(alerts.stream().map(NotifyAlert::annotations).toList());
  }

  private static Labels common(List<Labels> sets) {
    if (sets.isEmpty()) {
      return Labels.EMPTY;
    }
    Labels.Builder b = Labels.builder();
    sets.getFirst()
        .forEach(
            (name, value) -> {
              if (sets.stream().allMatch(s -> s.has(name) && s.get(name).equals(value))) {
                b.set(name, value);
              }
            });
    return b.build();
  }
}
