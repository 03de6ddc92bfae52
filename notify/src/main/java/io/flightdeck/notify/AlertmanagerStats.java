package io.flightdeck.notify;

import java.util.Map;

/**
 * Counters of an {@link AlertmanagerNotifier}, named after Prometheus's own notifier metrics.
 *
 * @param sent alerts delivered, by Alertmanager URL ({@code prometheus_notifications_sent_total})
 * @param errors alerts in batches that failed, by Alertmanager URL ({@code
 *     prometheus_notifications_errors_total})
 * @param dropped alerts lost to a full queue or to every Alertmanager failing ({@code
 *     prometheus_notifications_dropped_total})
 * @param queueLength alerts waiting ({@code prometheus_notifications_queue_length})
 * @param queueCapacity ({@code prometheus_notifications_queue_capacity})
 */
public record AlertmanagerStats(
    Map<String, Long> sent,
    Map<String, Long> errors,
    long dropped,
    int queueLength,
    int queueCapacity) {
  public AlertmanagerStats {
    sent = Map.copyOf(sent);
    errors = Map.copyOf(errors);
  }
}
