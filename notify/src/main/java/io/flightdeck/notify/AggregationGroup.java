package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;

/**
 * The alerts of one route node that share the node's group labels, and the timing of their
 * notifications: the first flush after {@code group_wait}, then every {@code group_interval}, and
 * per-integration retries in between. Guarded by the notifier's lock.
 */
final class AggregationGroup {
  final Route route;
  final Labels groupLabels;
  final String key;
  final Map<Labels, NotifyAlert> alerts = new TreeMap<>();
  long nextFlushAtMs;
  boolean flushed;

  /** Per integration of the route's receiver: consecutive failures and when to retry (0: none). */
  final int[] failures;

  final long[] retryAtMs;

  AggregationGroup(Route route, Labels groupLabels, int integrations, long nowMs) {
    this.route = route;
    this.groupLabels = groupLabels;
    this.key = route.key() + ":" + groupLabels;
    this.nextFlushAtMs = nowMs + route.groupWait().toMillis();
    this.failures = new int[integrations];
    this.retryAtMs = new long[integrations];
  }

  void add(NotifyAlert alert, long nowMs) {
    alerts.put(alert.labels(), alert);
    // An alert that has been active longer than group_wait (a restart, a late route) need not wait.
    if (!flushed && alert.startsAtMs() + route.groupWait().toMillis() < nowMs) {
      nextFlushAtMs = Math.min(nextFlushAtMs, nowMs);
    }
  }

  boolean retryPending() {
    return Arrays.stream(retryAtMs).anyMatch(t -> t > 0);
  }
}
