package io.flightdeck.notify;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A bounded queue of alerts that drops the oldest when full, as Prometheus's notifier does: newer
 * alert states supersede older ones. Thread-safe.
 */
final class AlertQueue {
  private final ArrayDeque<NotifyAlert> alerts = new ArrayDeque<>();
  private final int capacity;
  private long dropped;

  AlertQueue(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("queue capacity must be positive, got " + capacity);
    }
    this.capacity = capacity;
  }

  synchronized void addAll(List<NotifyAlert> batch) {
    for (NotifyAlert alert : batch) {
      if (alerts.size() == capacity) {
        alerts.pollFirst();
        dropped++;
      }
      alerts.addLast(alert);
    }
    notifyAll();
  }

  /** Takes up to {@code max} alerts, oldest first; empty when none arrive within the wait. */
  synchronized List<NotifyAlert> take(int max, long waitMillis) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(waitMillis);
    while (alerts.isEmpty()) {
      long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
      if (left <= 0) {
        return List.of();
      }
      wait(left);
    }
    List<NotifyAlert> batch = new ArrayList<>(Math.min(max, alerts.size()));
    while (batch.size() < max && !alerts.isEmpty()) {
      batch.add(alerts.pollFirst());
    }
    return batch;
  }

  synchronized int size() {
    return alerts.size();
  }

  int capacity() {
    return capacity;
  }

  synchronized long dropped() {
    return dropped;
  }
}
