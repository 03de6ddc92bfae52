package io.flightdeck.notify;

import io.flightdeck.config.AlertmanagerConfig;
import io.flightdeck.model.Labels;
import io.flightdeck.model.relabel.Relabeler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends alerts to every Alertmanager of the {@code alerting} section through API v2, as Prometheus
 * does: Alertmanagers found by each entry's service discovery (static, file, HTTP, Kubernetes) and
 * relabelling, {@code alert_relabel_configs} on the alerts first, then a bounded queue (oldest
 * dropped when full), then batches posted to all Alertmanagers in parallel with each section's
 * timeout and a few retries.
 *
 * <p>{@link #send} is thread-safe and never blocks on the network. {@link #start} runs the sender
 * thread {@code notify-alertmanager}; {@link #close} stops it, dropping what is still queued.
 */
public final class AlertmanagerNotifier implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(AlertmanagerNotifier.class);
  private static final long POLL_MILLIS = 200;

  private final AlertmanagerNotifierOptions options;
  private final AlertQueue queue;
  private final List<AlertmanagerSet> sets = new ArrayList<>();
  private final Map<String, AtomicLong> sent = new ConcurrentHashMap<>();
  private final Map<String, AtomicLong> errors = new ConcurrentHashMap<>();
  private final AtomicLong droppedOnError = new AtomicLong();
  private final ExecutorService posts =
      Executors.newThreadPerTaskExecutor(
          Thread.ofVirtual().name("notify-alertmanager-post-", 0).factory());
  private volatile Thread sender;
  private volatile boolean closed;

  /**
   * Starts discovering the Alertmanagers of every {@code alerting.alertmanagers} entry.
   *
   * @throws NotificationsConfigException when an entry's TLS settings cannot be used
   */
  public AlertmanagerNotifier(AlertmanagerNotifierOptions options) {
    this.options = options;
    this.queue = new AlertQueue(options.queueCapacity());
    List<AlertmanagerConfig> configs = options.alerting().alertmanagers();
    try {
      for (int i = 0; i < configs.size(); i++) {
        sets.add(new AlertmanagerSet(i, configs.get(i), options.httpClient()));
      }
    } catch (RuntimeException e) {
      sets.forEach(AlertmanagerSet::close);
      throw e;
    }
  }

  /** The Alertmanager URLs alerts go to now. */
  public List<String> alertmanagers() {
    return targets().stream().map(t -> t.endpoint.alertsUri().toString()).toList();
  }

  /** The Alertmanager URLs that relabelling dropped, for {@code /api/v1/alertmanagers}. */
  public List<String> droppedAlertmanagers() {
    List<String> dropped = new ArrayList<>();
    for (AlertmanagerSet set : sets) {
      set.dropped().forEach(uri -> dropped.add(uri.toString()));
    }
    return dropped;
  }

  /**
   * Silences on the first Alertmanager alerts go to, or empty when none is configured or
   * discovered.
   */
  public Optional<AlertmanagerSilences> silences() {
    return targets().stream().findFirst().map(t -> new AlertmanagerSilences(t.endpoint, t.poster));
  }

  private List<Target> targets() {
    List<Target> targets = new ArrayList<>();
    for (AlertmanagerSet set : sets) {
      for (AlertmanagerEndpoint endpoint : set.active()) {
        // Counters exist from discovery on, as Prometheus's per-Alertmanager series do.
        counter(sent, endpoint.alertsUri().toString());
        counter(errors, endpoint.alertsUri().toString());
        targets.add(new Target(endpoint, set.poster()));
      }
    }
    return targets;
  }

  /** Relabels and queues alerts; those that relabelling drops are discarded silently. */
  public void send(List<NotifyAlert> alerts) {
    if (targets().isEmpty() || closed) {
      return;
    }
    List<NotifyAlert> kept = new ArrayList<>(alerts.size());
    for (NotifyAlert alert : alerts) {
      Labels labels = Relabeler.process(alert.labels(), options.alerting().alertRelabelConfigs());
      if (labels != null && !labels.isEmpty()) {
        kept.add(alert.withLabels(labels));
      }
    }
    queue.addAll(kept);
  }

  public synchronized void start() {
    if (sender != null) {
      return;
    }
    sender = Thread.ofPlatform().name("notify-alertmanager").daemon().start(this::run);
  }

  private void run() {
    while (!closed) {
      try {
        sendBatch(POLL_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /**
   * Posts one batch to every Alertmanager, waiting up to {@code waitMillis} for alerts to arrive.
   * Returns the number of alerts in the batch. The sender thread calls this in a loop; tests call
   * it directly.
   */
  int sendBatch(long waitMillis) throws InterruptedException {
    List<NotifyAlert> batch = queue.take(options.maxBatchSize(), waitMillis);
    if (batch.isEmpty()) {
      return 0;
    }
    String body = PostableAlerts.encode(batch);
    List<Future<Boolean>> results = new ArrayList<>();
    for (Target target : targets()) {
      results.add(posts.submit(() -> post(target, body, batch.size())));
    }
    boolean anyDelivered = false;
    for (Future<Boolean> result : results) {
      try {
        anyDelivered |= result.get();
      } catch (ExecutionException e) {
        log.warn("posting alerts failed", e.getCause());
      }
    }
    if (!anyDelivered) {
      droppedOnError.addAndGet(batch.size());
    }
    return batch.size();
  }

  private boolean post(Target target, String body, int count) throws InterruptedException {
    String url = target.endpoint.alertsUri().toString();
    Duration backoff = options.retryBackoff();
    for (int attempt = 1; ; attempt++) {
      try {
        target.poster.postJson(
            target.endpoint.alertsUri(),
            body,
            AuthHeaders.of(target.endpoint.config().httpClient()));
        counter(sent, url).addAndGet(count);
        return true;
      } catch (DeliveryException e) {
        if (!e.retryable() || attempt >= options.maxAttempts()) {
          counter(errors, url).addAndGet(count);
          log.warn("sending {} alerts to Alertmanager failed: {}", count, e.getMessage());
          return false;
        }
      }
      Thread.sleep(backoff.toMillis());
      backoff = backoff.multipliedBy(2);
    }
  }

  public AlertmanagerStats stats() {
    return new AlertmanagerStats(
        snapshot(sent),
        snapshot(errors),
        queue.dropped() + droppedOnError.get(),
        queue.size(),
        queue.capacity());
  }

  private static AtomicLong counter(Map<String, AtomicLong> counters, String url) {
    return counters.computeIfAbsent(url, u -> new AtomicLong());
  }

  private static Map<String, Long> snapshot(Map<String, AtomicLong> counters) {
    Map<String, Long> copy = new HashMap<>();
    counters.forEach((k, v) -> copy.put(k, v.get()));
    return copy;
  }

  @Override
  public void close() {
    closed = true;
    Thread t = sender;
    if (t != null) {
      t.interrupt();
      try {
        t.join(Duration.ofSeconds(5));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    posts.shutdownNow();
    sets.forEach(AlertmanagerSet::close);
  }

  private record Target(AlertmanagerEndpoint endpoint, HttpPoster poster) {}
}
