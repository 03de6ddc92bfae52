package io.flightdeck.app;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The agent's collectors run inside the server, for a single machine ({@code --collector.enable}):
 * every interval the node's host, GPU and GPU-process metrics are stored directly, under the labels
 * a scrape of the agent would give them. Series that disappear (a process leaves its GPU) get a
 * stale marker, as a scrape would write. {@link #close} stops collection and releases NVML.
 */
final class ServerCollection implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(ServerCollection.class);

  private final NodeCollection node;
  private final Appendable storage;
  private final Clock clock;
  private final String instance;
  private final ScheduledExecutorService schedule =
      Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "server-collector"));
  private Set<Labels> previous = Set.of();

  ServerCollection(NodeCollection node, Appendable storage, Clock clock, String instance) {
    this.node = node;
    this.storage = storage;
    this.clock = clock;
    this.instance = instance;
  }

  void start(Duration interval) {
    long period = interval.toMillis();
    schedule.scheduleAtFixedRate(this::collectOnce, 0, period, TimeUnit.MILLISECONDS);
    LOG.info("collecting this node's host and GPU metrics every {}", interval);
  }

  private void collectOnce() {
    long timestamp = clock.millis();
    Appender appender = null;
    try {
      List<MetricFamily> families = node.collect();
      appender = storage.appender();
      Set<Labels> current = NodeCollection.append(appender, families, timestamp, instance);
      for (Labels gone : previous) {
        if (!current.contains(gone)) {
          try {
            appender.append(0, gone, timestamp, StaleMarker.VALUE);
          } catch (SampleRejectedException ignored) {
            // the series was ended already
          }
        }
      }
      appender.commit();
      previous = current;
    } catch (RuntimeException e) {
      // One bad collection must not end the schedule (an exception would cancel it).
      if (appender != null) {
        try {
          appender.rollback();
        } catch (RuntimeException rollback) {
          e.addSuppressed(rollback);
        }
      }
      LOG.warn("node collection failed: {}", e.toString());
    }
  }

  @Override
  public void close() {
    schedule.shutdown();
    try {
      schedule.awaitTermination(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    node.close();
  }
}
