package io.flightdeck.discovery;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A discoverer that re-reads its source on a refresh interval, and also whenever a cheap change
 * check (polled every watch interval) says the source changed. Runs on one named thread of its own.
 */
abstract class PollingDiscoverer implements Discoverer {
  private static final Logger log = LoggerFactory.getLogger(PollingDiscoverer.class);

  private final String name;
  private final Duration refreshInterval;
  private final Duration watchInterval;
  private ScheduledExecutorService executor;
  private Listener listener;
  private List<TargetGroup> last;
  private volatile String lastError = "";
  private boolean closed;

  /**
   * @param name names the thread and log lines
   * @param watchInterval how often {@link #changed()} is asked; zero for never
   */
  PollingDiscoverer(String name, Duration refreshInterval, Duration watchInterval) {
    this.name = name;
    this.refreshInterval = refreshInterval;
    this.watchInterval = watchInterval;
  }

  /** Reads every group afresh; any exception keeps the last good groups. */
  abstract List<TargetGroup> read() throws Exception;

  /** Whether the source changed since the last {@link #read()}; called on the watch interval. */
  boolean changed() {
    return false;
  }

  @Override
  public final synchronized void start(Listener listener) {
    if (this.listener != null) {
      throw new IllegalStateException("already started");
    }
    this.listener = listener;
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "discovery-" + name);
              thread.setDaemon(true);
              return thread;
            });
    long refresh = Math.max(1, refreshInterval.toMillis());
    executor.scheduleWithFixedDelay(this::refresh, 0, refresh, TimeUnit.MILLISECONDS);
    if (!watchInterval.isZero()) {
      long watch = watchInterval.toMillis();
      executor.scheduleWithFixedDelay(this::refreshIfChanged, watch, watch, TimeUnit.MILLISECONDS);
    }
  }

  private void refreshIfChanged() {
    try {
      if (changed()) {
        refresh();
      }
    } catch (RuntimeException e) {
      log.warn("discovery {}: change check failed: {}", name, e.toString());
    }
  }

  /** Reads now and reports a change; also what the schedule runs. */
  final void refresh() {
    List<TargetGroup> groups;
    try {
      groups = List.copyOf(read());
      lastError = "";
    } catch (Exception e) {
      lastError = e.getMessage() == null ? e.toString() : e.getMessage();
      log.warn("discovery {}: refresh failed, keeping the last good targets: {}", name, lastError);
      groups = null;
    }
    deliver(groups);
  }

  private synchronized void deliver(List<TargetGroup> groups) {
    if (closed) {
      return;
    }
    if (groups == null) {
      if (last != null) {
        return;
      }
      groups = List.of(); // the first read failed: report that nothing is known yet
    }
    if (!groups.equals(last)) {
      last = groups;
      listener.groups(groups);
    }
  }

  @Override
  public final String lastError() {
    return lastError;
  }

  @Override
  public final void close() {
    ScheduledExecutorService running;
    synchronized (this) {
      closed = true;
      running = executor;
    }
    if (running != null) {
      running.shutdownNow();
      try {
        running.awaitTermination(10, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    released();
  }

  /** Releases what the subclass holds; called by every {@link #close()}, the thread stopped. */
  void released() {}
}
