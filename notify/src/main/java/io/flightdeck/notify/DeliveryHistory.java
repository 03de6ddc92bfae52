package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * The most recent notification deliveries, kept in memory for the cockpit's notification log: what
 * was sent to which integration, when, and whether it arrived. Outlives a {@link Notifier}, which a
 * configuration reload replaces. Thread-safe.
 */
public final class DeliveryHistory {
  /** How many deliveries a server keeps by default: days of a busy cluster's notifications. */
  public static final int DEFAULT_CAPACITY = 1000;

  /**
   * One delivery to one integration.
   *
   * @param integration the integration's kind: {@code webhook}, {@code feishu}, {@code slack}...
   * @param status {@code firing} while any alert of the group fires, else {@code resolved}
   * @param error why it failed; null when it arrived
   */
  public record Delivery(
      long timeMs,
      String receiver,
      String integration,
      String status,
      List<DeliveredAlert> alerts,
      String error) {
    public Delivery {
      alerts = List.copyOf(alerts);
    }

    public boolean ok() {
      return error == null;
    }
  }

  /** An alert as it was delivered. */
  public record DeliveredAlert(Labels labels, String status) {}

  private final int capacity;
  private final Deque<Delivery> deliveries = new ArrayDeque<>();

  public DeliveryHistory(int capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be at least 1, not " + capacity);
    }
    this.capacity = capacity;
  }

  synchronized void add(Delivery delivery) {
    if (deliveries.size() == capacity) {
      deliveries.removeLast();
    }
    deliveries.addFirst(delivery);
  }

  /** Every delivery kept, newest first. */
  public synchronized List<Delivery> newestFirst() {
    return new ArrayList<>(deliveries);
  }

  /** The record of {@code notification}'s delivery by an integration of {@code kind}. */
  static Delivery of(Notification notification, String kind, DeliveryException error) {
    List<DeliveredAlert> alerts = new ArrayList<>(notification.alerts().size());
    for (NotifyAlert alert : notification.alerts()) {
      alerts.add(new DeliveredAlert(alert.labels(), notification.alertStatus(alert)));
    }
    return new Delivery(
        notification.nowMs(),
        notification.receiver(),
        kind,
        notification.status(),
        alerts,
        error == null ? null : error.getMessage());
  }
}
