package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.util.List;

/**
 * What the targets endpoints read: the scrape targets of the running configuration. Implemented at
 * the edge over the scrape manager, so this module does not depend on it. Thread-safe; each call
 * returns a snapshot.
 */
public interface TargetsSource {
  List<Active> activeTargets();

  List<Dropped> droppedTargets();

  List<Metadata> targetMetadata();

  /** Health of an active target: the latest scrape succeeded, failed, or has not run yet. */
  enum Health {
    UP,
    DOWN,
    UNKNOWN
  }

  /**
   * A target being scraped.
   *
   * @param lastScrapeMillis start of the latest scrape, 0 before the first
   * @param scrapeInterval as Prometheus writes durations ({@code 15s}, {@code 1m30s})
   */
  record Active(
      Labels discoveredLabels,
      Labels labels,
      String scrapePool,
      String scrapeUrl,
      String globalUrl,
      String lastError,
      long lastScrapeMillis,
      double lastScrapeDurationSeconds,
      Health health,
      String scrapeInterval,
      String scrapeTimeout) {}

  /** A discovered target that relabelling dropped. */
  record Dropped(Labels discoveredLabels, String scrapePool) {}

  /** One metric family's metadata as one target exposes it. */
  record Metadata(Labels target, String metric, MetricMetadata metadata) {}
}
