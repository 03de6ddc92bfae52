package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.exposition.MetadataCache;
import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.StorageException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes one target: fetch, append in one commit with the synthetic series, staleness markers for
 * series that disappeared, and the status the targets API shows. {@link #scrapeOnce()} runs one
 * scrape on the calling thread; scheduling is the pool's business. Scrapes of one loop never
 * overlap; status reads are safe from any thread.
 */
final class ScrapeLoop {
  private static final Logger log = LoggerFactory.getLogger(ScrapeLoop.class);

  static final String UP = "up";
  static final String DURATION = "scrape_duration_seconds";
  static final String SAMPLES_SCRAPED = "scrape_samples_scraped";
  static final String POST_RELABEL = "scrape_samples_post_metric_relabeling";
  static final String SERIES_ADDED = "scrape_series_added";
  private static final List<String> REPORTS =
      List.of(UP, DURATION, SAMPLES_SCRAPED, POST_RELABEL, SERIES_ADDED);

  private final ScrapeTarget target;
  private final ScrapeConfig config;
  private final HttpScraper scraper;
  private final Appendable storage;
  private final Clock clock;
  private final Map<String, Long> reportRefs = new HashMap<>();

  /**
   * Held for a whole scrape, network exchange included. A lock rather than a monitor: before Java
   * 24 a virtual thread that blocks inside {@code synchronized} holds on to its carrier thread, and
   * a few hanging targets would stall every other scrape.
   */
  private final ReentrantLock lock = new ReentrantLock();

  private volatile Labels discovered;
  private volatile String forcedError;
  private final SeriesCache cache = new SeriesCache();
  private final MetadataCache metadataCache = new MetadataCache();

  /**
   * What this target's loop under the job's previous configuration stored last, until this loop's
   * first scrape tells which of those series go on; null otherwise.
   */
  private List<SeriesCache.Entry> inherited;

  /**
   * Prometheus's alignment of scrape timestamps (prometheus#7846): a scrape that starts within this
   * many milliseconds (at most 1% of the interval) of its schedule is stamped with the scheduled
   * time, so consecutive timestamps lie exactly an interval apart, which the TSDB stores in one bit
   * instead of a dozen and more.
   */
  private static final long ALIGNMENT_TOLERANCE_MS = 2;

  /** The schedule that timestamps are aligned to; unset before the first scrape. */
  private long alignedTime = Long.MIN_VALUE;

  private Map<String, MetricMetadata> storedMetadata = Map.of();
  private boolean stopped;
  private volatile Status status = new Status(Health.UNKNOWN, "", 0, 0, Map.of());

  /** The latest outcome, published as one piece. */
  record Status(
      Health health,
      String lastError,
      long lastScrapeMillis,
      double lastDurationSeconds,
      Map<String, MetricMetadata> metadata) {}

  ScrapeLoop(
      ScrapeTarget target,
      Labels discovered,
      ScrapeConfig config,
      HttpScraper scraper,
      Appendable storage,
      Clock clock) {
    this.target = target;
    this.discovered = discovered;
    this.config = config;
    this.scraper = scraper;
    this.storage = storage;
    this.clock = clock;
  }

  ScrapeTarget target() {
    return target;
  }

  Labels discovered() {
    return discovered;
  }

  void discovered(Labels labels) {
    discovered = labels;
  }

  Status status() {
    return status;
  }

  /** Makes every scrape fail with {@code error} without asking the target; null to resume. */
  void forceError(String error) {
    forcedError = error;
  }

  /** One scrape, start to commit; a no-op once stopped. */
  void scrapeOnce() throws InterruptedException {
    lock.lock();
    try {
      scrapeLocked();
    } finally {
      lock.unlock();
    }
  }

  private void scrapeLocked() throws InterruptedException {
    if (stopped) {
      return;
    }
    long start = aligned(clock.millis());
    long began = System.nanoTime();
    cache.beginScrape();
    String error = "";
    HttpScraper.Response response = null;
    String forced = forcedError;
    if (forced != null) {
      error = forced;
    } else {
      try {
        response = scraper.fetch(target.url(), target.timeout());
      } catch (ScrapeException e) {
        error = e.getMessage();
      }
    }
    ScrapeBatch.Outcome outcome = null;
    Appender appender = null; // set while a batch is open, so a failure rolls back only that one
    try {
      appender = storage.appender();
      if (response != null) {
        try {
          outcome =
              ScrapeBatch.append(
                  appender,
                  response.body(),
                  response.contentType(),
                  start,
                  target,
                  config,
                  cache,
                  metadataCache);
          cache.keepBatch();
        } catch (ScrapeException e) {
          error = e.getMessage();
          Appender failed = appender;
          appender = null;
          failed.rollback();
          appender = storage.appender();
        }
      }
      markStale(appender, cache.disappeared(), start);
      if (inherited != null) {
        markStale(appender, notStoredNow(inherited), start);
        inherited = null;
      }
      double seconds = (System.nanoTime() - began) / 1e9;
      report(appender, start, outcome == null ? 0 : 1, seconds, outcome);
      if (outcome != null) {
        storeMetadata(appender, outcome.metadata());
      }
      Appender done = appender;
      appender = null;
      done.commit();
      cache.evictOld();
      Map<String, MetricMetadata> metadata =
          outcome == null ? status.metadata() : outcome.metadata();
      status =
          new Status(error.isEmpty() ? Health.UP : Health.DOWN, error, start, seconds, metadata);
      if (outcome != null && outcome.rejected() > 0) {
        log.debug("{}: {} samples refused by storage", target.url(), outcome.rejected());
      }
    } catch (StorageException e) {
      if (appender != null) {
        appender.rollback();
      }
      status =
          new Status(
              Health.DOWN,
              "appending scrape results: " + e.getMessage(),
              start,
              (System.nanoTime() - began) / 1e9,
              status.metadata());
    }
  }

  /**
   * The scrape's timestamp: the scheduled time if {@code now} is at most the tolerance after it,
   * else now (an early or late tick keeps its own time, as in Prometheus).
   */
  private long aligned(long now) {
    long interval = target.interval().toMillis();
    long tolerance = Math.min(interval / 100, ALIGNMENT_TOLERANCE_MS);
    if (alignedTime == Long.MIN_VALUE || now < alignedTime - tolerance || interval <= 0) {
      alignedTime = now; // the first scrape, or the clock stepped back
      return now;
    }
    if (now - alignedTime >= interval) {
      alignedTime += (now - alignedTime) / interval * interval; // ticks may have been skipped
    }
    return now - alignedTime <= tolerance ? alignedTime : now;
  }

  private void report(
      Appender appender, long time, double up, double seconds, ScrapeBatch.Outcome outcome) {
    appendReport(appender, UP, time, up);
    appendReport(appender, DURATION, time, seconds);
    appendReport(appender, SAMPLES_SCRAPED, time, outcome == null ? 0 : outcome.scraped());
    appendReport(appender, POST_RELABEL, time, outcome == null ? 0 : outcome.postRelabel());
    appendReport(appender, SERIES_ADDED, time, outcome == null ? 0 : outcome.seriesAdded());
  }

  private void appendReport(Appender appender, String name, long time, double value) {
    Labels labels = target.labels().toBuilder().set(Labels.METRIC_NAME, name).build();
    try {
      long ref = appender.append(reportRefs.getOrDefault(name, 0L), labels, time, value);
      reportRefs.put(name, ref);
    } catch (SampleRejectedException e) {
      // a clock step backwards: the next scrape reports again
    }
  }

  /** The entries whose labels this scrape did not store. */
  private List<SeriesCache.Entry> notStoredNow(List<SeriesCache.Entry> entries) {
    Set<Labels> stored = new HashSet<>();
    for (SeriesCache.Entry entry : cache.latest()) {
      stored.add(entry.labels);
    }
    List<SeriesCache.Entry> gone = new ArrayList<>();
    for (SeriesCache.Entry entry : entries) {
      if (!stored.contains(entry.labels)) {
        gone.add(entry);
      }
    }
    return gone;
  }

  private static void markStale(Appender appender, List<SeriesCache.Entry> gone, long time) {
    for (SeriesCache.Entry entry : gone) {
      try {
        appender.append(entry.ref, entry.labels, time, StaleMarker.VALUE);
      } catch (SampleRejectedException e) {
        // already superseded by a newer sample: nothing to end
      }
    }
  }

  private void storeMetadata(Appender appender, Map<String, MetricMetadata> metadata) {
    if (metadata.equals(storedMetadata)) {
      return;
    }
    metadata.forEach(
        (name, value) -> {
          if (!Objects.equals(storedMetadata.get(name), value)) {
            appender.updateMetadata(name, value);
          }
        });
    storedMetadata = metadata;
  }

  /**
   * Stops scraping; waits for a scrape in progress (bounded by its timeout). With {@code stale}, as
   * when the target disappears, every series it wrote, synthetic ones included, gets a staleness
   * marker.
   */
  void stop(boolean stale) {
    lock.lock();
    try {
      if (stopped) {
        return;
      }
      stopped = true;
      if (stale) {
        endSeries();
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes over the series a stopped loop of the same target wrote under an earlier configuration of
   * its job, so that series the new configuration no longer produces get their staleness markers at
   * this loop's first scrape, as if nothing had been restarted.
   */
  void adopt(ScrapeLoop previous) {
    lock.lock();
    previous.lock.lock();
    try {
      // Only what it stored: its cache maps series bytes to labels under the old relabelling.
      inherited = previous.cache.latest();
      reportRefs.putAll(previous.reportRefs);
      storedMetadata = previous.storedMetadata;
      status = previous.status;
    } finally {
      previous.lock.unlock();
      lock.unlock();
    }
  }

  /**
   * Ends every series this stopped loop wrote, synthetic ones included: its target is gone. A loop
   * that never scraped has nothing to end.
   */
  void endSeries() {
    lock.lock();
    try {
      endSeriesLocked();
    } finally {
      lock.unlock();
    }
  }

  private void endSeriesLocked() {
    if (status.health() == Health.UNKNOWN) {
      return;
    }
    long now = clock.millis();
    Appender appender = null;
    try {
      appender = storage.appender();
      markStale(appender, cache.latest(), now);
      if (inherited != null) {
        markStale(appender, inherited, now);
        inherited = null;
      }
      for (String name : REPORTS) {
        Labels labels = target.labels().toBuilder().set(Labels.METRIC_NAME, name).build();
        try {
          appender.append(reportRefs.getOrDefault(name, 0L), labels, now, StaleMarker.VALUE);
        } catch (SampleRejectedException e) {
          // nothing to end
        }
      }
      Appender done = appender;
      appender = null;
      done.commit();
    } catch (StorageException e) {
      if (appender != null) {
        appender.rollback();
      }
      log.warn("{}: staleness markers not written: {}", target.url(), e.getMessage());
    }
  }
}
