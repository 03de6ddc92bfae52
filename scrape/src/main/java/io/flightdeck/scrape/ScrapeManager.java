package io.flightdeck.scrape;

import io.flightdeck.config.Config;
import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.discovery.Discoverers;
import io.flightdeck.model.Clock;
import io.flightdeck.storage.Appendable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs every scrape job of a configuration and appends what they pull to storage. {@link
 * #apply(Config)} starts, replaces or stops jobs: a job whose configuration is unchanged keeps its
 * discovery and loops running; a changed one is rebuilt; a removed one marks its series stale.
 * Threads: one timer ({@code scrape-timer}: scrape ticks and deadlines), a virtual thread per
 * scrape in flight ({@code scrape-N}), and one idle connection evictor per job. Thread-safe; {@link
 * #close()} stops everything without staleness markers, as a shutdown should.
 */
public final class ScrapeManager implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ScrapeManager.class);

  private final Appendable storage;
  private final Clock clock;
  private final ScheduledExecutorService timer;
  private final ExecutorService workers;
  private final Map<String, ScrapePool> pools = new LinkedHashMap<>();
  private boolean closed;

  public ScrapeManager(Appendable storage, Clock clock) {
    this.storage = storage;
    this.clock = clock;
    ScheduledThreadPoolExecutor timer =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread thread = new Thread(r, "scrape-timer");
              thread.setDaemon(true);
              return thread;
            });
    // Every scrape arms a deadline that is nearly always cancelled: drop those at once.
    timer.setRemoveOnCancelPolicy(true);
    this.timer = timer;
    this.workers =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("scrape-", 0).factory());
  }

  /**
   * Makes {@code config}'s scrape jobs the running ones.
   *
   * @throws IllegalArgumentException when a job's TLS settings cannot be loaded; nothing changes
   */
  public synchronized void apply(Config config) {
    if (closed) {
      throw new IllegalStateException("scrape manager is closed");
    }
    Map<String, ScrapePool> next = new LinkedHashMap<>();
    List<ScrapePool> fresh = new ArrayList<>();
    try {
      for (ScrapeConfig job : config.scrapeConfigs()) {
        ScrapePool current = pools.get(job.jobName());
        if (current != null && current.config().equals(job)) {
          next.put(job.jobName(), current);
        } else {
          // A changed job's new pool retires the old one and takes over its targets' series.
          ScrapePool pool = create(job, current);
          fresh.add(pool);
          next.put(job.jobName(), pool);
        }
      }
    } catch (ScrapeException e) {
      fresh.forEach(p -> p.stop(false));
      throw new IllegalArgumentException(e.getMessage(), e);
    }
    for (Map.Entry<String, ScrapePool> old : pools.entrySet()) {
      if (!next.containsKey(old.getKey())) {
        // A removed job's series end here. Stopping waits for scrapes in flight, so it runs off
        // the caller's thread.
        ScrapePool retired = old.getValue();
        workers.execute(() -> retired.stop(true));
      }
    }
    pools.clear();
    pools.putAll(next);
    fresh.forEach(ScrapePool::start);
    log.info("scraping {} jobs ({} started or restarted)", pools.size(), fresh.size());
  }

  private ScrapePool create(ScrapeConfig job, ScrapePool predecessor) throws ScrapeException {
    ScrapeClient client = new ScrapeClient(job.httpClient());
    HttpScraper scraper = new HttpScraper(client, timer, job);
    return new ScrapePool(
        job,
        storage,
        clock,
        timer,
        workers,
        Discoverers.create(job.jobName(), job.serviceDiscovery()),
        scraper,
        client,
        predecessor);
  }

  /** Every target being scraped, job by job. */
  public synchronized List<TargetStatus> activeTargets() {
    List<TargetStatus> list = new ArrayList<>();
    pools.values().forEach(p -> list.addAll(p.active()));
    return list;
  }

  /** Discovered targets that relabelling dropped. */
  public synchronized List<DroppedTarget> droppedTargets() {
    List<DroppedTarget> list = new ArrayList<>();
    pools.values().forEach(p -> list.addAll(p.dropped()));
    return list;
  }

  /** Metric metadata per target from each one's latest successful scrape. */
  public synchronized List<TargetMetadata> targetMetadata() {
    List<TargetMetadata> list = new ArrayList<>();
    pools.values().forEach(p -> list.addAll(p.metadata()));
    return list;
  }

  /** The loops of one job, for tests in this package. */
  synchronized List<ScrapeLoop> loops(String job) {
    ScrapePool pool = pools.get(job);
    return pool == null ? List.of() : pool.loops();
  }

  @Override
  public void close() {
    List<ScrapePool> running;
    synchronized (this) {
      if (closed) {
        return;
      }
      closed = true;
      running = new ArrayList<>(pools.values());
      pools.clear();
    }
    timer.shutdownNow();
    workers.shutdownNow(); // interrupts scrapes in flight, so stopping does not wait for them
    running.forEach(p -> p.stop(false));
    try {
      if (!workers.awaitTermination(30, TimeUnit.SECONDS)) {
        log.warn("scrapes still running 30 s after shutdown");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
