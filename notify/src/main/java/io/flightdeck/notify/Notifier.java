package io.flightdeck.notify;

import io.flightdeck.model.Labels;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Direct notifications with Alertmanager's semantics: alerts are routed through the tree,
 * inhibited, grouped per route node and group labels, and each group is notified after {@code
 * group_wait}, then when it changes (checked every {@code group_interval}), and again every {@code
 * repeat_interval} while unchanged and firing. A failed receiver is retried with exponential
 * backoff; each retry sends the group's state at that time, so a receiver that comes back gets one
 * notification, not the backlog. The notification log survives restarts.
 *
 * <p>{@link #send} is thread-safe and never waits on the network. {@link #tick} does the work that
 * is due at the clock's time, delivering to every integration concurrently and returning when all
 * are done; {@link #start} calls it from the thread {@code notify-dispatcher} every tick interval.
 */
public final class Notifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Notifier.class);

  private final NotifierOptions options;
  private final NotificationsConfig config;
  private final Map<String, Receiver> receivers = new HashMap<>();
  private final Map<String, List<Integration>> integrations = new HashMap<>();
  private final Object lock = new Object();
  private final Object tickLock = new Object();
  private final Map<String, AggregationGroup> groups = new LinkedHashMap<>();
  private final Map<Labels, NotifyAlert> latest = new HashMap<>();
  private final NotificationLog notificationLog;
  private final Map<String, Long> sent = new HashMap<>();
  private final Map<String, Long> failed = new HashMap<>();
  private final ExecutorService deliveries =
      Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("notify-delivery-", 0).factory());
  private volatile Thread dispatcher;
  private volatile boolean closed;

  public Notifier(NotifierOptions options) {
    this.options = options;
    this.config = options.config();
    HttpPoster poster = new HttpPoster(options.httpClient(), options.timeout());
    for (Receiver receiver : config.receivers()) {
      receivers.put(receiver.name(), receiver);
      List<Integration> list = new ArrayList<>();
      for (IntegrationConfig c : receiver.integrations()) {
        list.add(
            switch (c) {
              case WebhookConfig w -> new WebhookIntegration(w, poster);
              case SlackConfig s -> new SlackIntegration(s, poster);
              case FeishuConfig f -> new FeishuIntegration(f, poster, options.clock());
              case DingTalkConfig d -> new DingTalkIntegration(d, poster, options.clock());
              case WeComConfig w -> new WeComIntegration(w, poster);
            });
      }
      integrations.put(receiver.name(), list);
    }
    this.notificationLog =
        new NotificationLog(options.dataDir(), NotifierOptions.LOG_RETENTION.toMillis());
  }

  /** Takes new alert states; alerts without an end time get the resolve timeout. */
  public void send(List<NotifyAlert> alerts) {
    if (!config.enabled()) {
      return;
    }
    synchronized (lock) {
      long now = options.clock().millis();
      for (NotifyAlert alert : alerts) {
        NotifyAlert a =
            alert.endsAtMs() > 0
                ? alert
                : alert.withEndsAt(now + config.resolveTimeout().toMillis());
        latest.put(a.labels(), a);
        for (Route route : config.route().match(a.labels())) {
          Labels groupLabels = route.groupLabels(a.labels());
          String key = route.key() + ":" + groupLabels;
          groups
              .computeIfAbsent(
                  key,
                  k ->
                      new AggregationGroup(
                          route, groupLabels, integrations.get(route.receiver()).size(), now))
              .add(a, now);
        }
      }
    }
  }

  /** Delivers what is due now. Called by the dispatcher thread, or by tests driving the clock. */
  public void tick() {
    synchronized (tickLock) {
      Round round;
      long now;
      synchronized (lock) {
        now = options.clock().millis();
        latest.values().removeIf(a -> a.resolvedAt(now));
        round = dueRound(now);
      }
      deliverConcurrently(round.attempts);
      synchronized (lock) {
        record(round, now);
      }
    }
  }

  /**
   * Each integration's delivery runs on its own virtual thread, so a slow or hanging receiver (up
   * to its timeout) does not hold back the others' notifications of the same round.
   */
  private void deliverConcurrently(List<Attempt> attempts) {
    List<Future<?>> running = new ArrayList<>(attempts.size());
    for (Attempt attempt : attempts) {
      running.add(deliveries.submit(attempt::deliver));
    }
    for (Future<?> delivery : running) {
      try {
        delivery.get();
      } catch (ExecutionException e) {
        log.error("notification delivery failed", e.getCause());
      } catch (InterruptedException e) {
        // Closing: the deliveries still running finish on their own; their results are dropped.
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /**
   * The deliveries due now, and the groups flushed in full with their alerts at that time (to
   * forget the resolved ones once every integration has them).
   */
  private record Round(
      List<Attempt> attempts, Map<AggregationGroup, Map<Labels, NotifyAlert>> flushed) {}

  private Round dueRound(long now) {
    List<NotifyAlert> firing = latest.values().stream().toList();
    List<Attempt> attempts = new ArrayList<>();
    Map<AggregationGroup, Map<Labels, NotifyAlert>> flushed = new LinkedHashMap<>();
    for (AggregationGroup group : groups.values()) {
      boolean full = now >= group.nextFlushAtMs;
      if (full) {
        group.nextFlushAtMs = now + group.route.groupInterval().toMillis();
        group.flushed = true;
        flushed.put(group, Map.copyOf(group.alerts));
      }
      List<NotifyAlert> visible =
          group.alerts.values().stream().filter(a -> !inhibited(a, firing)).toList();
      Receiver receiver = receivers.get(group.route.receiver());
      for (int i = 0; i < receiver.integrations().size(); i++) {
        boolean retryDue = group.retryAtMs[i] > 0 && now >= group.retryAtMs[i];
        if (full || retryDue) {
          attempts.add(attempt(group, receiver, i, visible, now));
        }
      }
    }
    return new Round(attempts, flushed);
  }

  private boolean inhibited(NotifyAlert alert, List<NotifyAlert> firing) {
    for (InhibitRule rule : config.inhibitRules()) {
      if (rule.inhibits(alert.labels(), firing)) {
        return true;
      }
    }
    return false;
  }

  private Attempt attempt(
      AggregationGroup group, Receiver receiver, int index, List<NotifyAlert> visible, long now) {
    IntegrationConfig ic = receiver.integrations().get(index);
    Set<String> firing = new TreeSet<>();
    Set<String> resolved = new TreeSet<>();
    List<NotifyAlert> toSend = new ArrayList<>();
    for (NotifyAlert a : visible) {
      if (a.resolvedAt(now)) {
        resolved.add(a.fingerprint());
        if (ic.sendResolved()) {
          toSend.add(a);
        }
      } else {
        firing.add(a.fingerprint());
        toSend.add(a);
      }
    }
    String logKey = receiver.name() + "/" + ic.kind() + "[" + index + "]/" + group.key;
    NotificationLog.Entry entry = notificationLog.get(logKey);
    boolean needed =
        needsUpdate(entry, firing, resolved, ic.sendResolved(), group.route.repeatInterval(), now);
    Notification notification =
        new Notification(
            receiver.name(), group.key, group.groupLabels, toSend, now, options.externalUrl());
    Integration integration = integrations.get(receiver.name()).get(index);
    return new Attempt(
        group,
        index,
        ic.kind(),
        logKey,
        needed,
        toSend.isEmpty() ? null : integration,
        notification,
        new NotificationLog.Entry(firing, resolved, now));
  }

  /** Alertmanager's deduplication: whether this integration must hear about the group now. */
  private static boolean needsUpdate(
      NotificationLog.Entry entry,
      Set<String> firing,
      Set<String> resolved,
      boolean sendResolved,
      Duration repeat,
      long now) {
    if (entry == null) {
      return !firing.isEmpty();
    }
    if (!entry.firing().containsAll(firing)) {
      return true;
    }
    if (firing.isEmpty()) {
      // All resolved: tell the receiver only if it was told they fired.
      return !entry.firing().isEmpty();
    }
    if (sendResolved && !entry.resolved().containsAll(resolved)) {
      return true;
    }
    return entry.timestampMs() <= now - repeat.toMillis();
  }

  private void record(Round round, long now) {
    Set<AggregationGroup> failedGroups = new HashSet<>();
    for (Attempt a : round.attempts) {
      AggregationGroup g = a.group;
      if (a.delivers()) {
        options.history().add(DeliveryHistory.of(a.notification, a.kind, a.error));
      }
      if (a.error == null) {
        if (a.needed) {
          // Also when nothing was sent (all resolved, send_resolved off): the log must forget them.
          notificationLog.put(a.logKey, a.logEntry);
        }
        if (a.delivers()) {
          sent.merge(a.kind, 1L, Long::sum);
        }
        g.failures[a.index] = 0;
        g.retryAtMs[a.index] = 0;
      } else {
        failedGroups.add(g);
        failed.merge(a.kind, 1L, Long::sum);
        log.warn("notifying {} failed: {}", a.logKey, a.error.getMessage());
        if (a.error.retryable()) {
          g.failures[a.index]++;
          g.retryAtMs[a.index] = now + backoff(g.failures[a.index]).toMillis();
        } else {
          g.failures[a.index] = 0;
          g.retryAtMs[a.index] = 0;
        }
      }
    }
    round.flushed.forEach(
        (group, snapshot) -> {
          if (!failedGroups.contains(group) && !group.retryPending()) {
            removeResolved(group, snapshot, now);
          }
        });
  }

  /** After a delivered flush, forget resolved alerts that did not change since. */
  private void removeResolved(AggregationGroup group, Map<Labels, NotifyAlert> snapshot, long now) {
    for (Iterator<NotifyAlert> it = group.alerts.values().iterator(); it.hasNext(); ) {
      NotifyAlert current = it.next();
      if (current.resolvedAt(now) && current.equals(snapshot.get(current.labels()))) {
        it.remove();
      }
    }
    if (group.alerts.isEmpty()) {
      groups.remove(group.key);
    }
  }

  private Duration backoff(int failures) {
    Duration d = options.initialBackoff().multipliedBy(1L << Math.min(failures - 1, 20));
    return d.compareTo(options.maxBackoff()) > 0 ? options.maxBackoff() : d;
  }

  public NotifierStats stats() {
    synchronized (lock) {
      return new NotifierStats(sent, failed, groups.size());
    }
  }

  public synchronized void start() {
    if (dispatcher != null || !config.enabled()) {
      return;
    }
    dispatcher = Thread.ofPlatform().name("notify-dispatcher").daemon().start(this::run);
  }

  private void run() {
    while (!closed) {
      try {
        tick();
      } catch (RuntimeException e) {
        log.error("notification dispatch failed", e);
      }
      try {
        Thread.sleep(options.tickInterval());
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  @Override
  public void close() {
    closed = true;
    Thread t = dispatcher;
    if (t != null) {
      t.interrupt();
      try {
        t.join(Duration.ofSeconds(15));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    deliveries.shutdownNow();
  }

  /**
   * One integration's turn on one group; {@code integration} is null when no alert is for it (all
   * resolved and send_resolved off).
   */
  private static final class Attempt {
    final AggregationGroup group;
    final int index;
    final String kind;
    final String logKey;
    final boolean needed;
    final Integration integration;
    final Notification notification;
    final NotificationLog.Entry logEntry;
    DeliveryException error;

    Attempt(
        AggregationGroup group,
        int index,
        String kind,
        String logKey,
        boolean needed,
        Integration integration,
        Notification notification,
        NotificationLog.Entry logEntry) {
      this.group = group;
      this.index = index;
      this.kind = kind;
      this.logKey = logKey;
      this.needed = needed;
      this.integration = integration;
      this.notification = notification;
      this.logEntry = logEntry;
    }

    boolean delivers() {
      return needed && integration != null;
    }

    void deliver() {
      if (!delivers()) {
        return;
      }
      try {
        integration.notify(notification);
      } catch (DeliveryException e) {
        error = e;
      }
    }
  }
}
