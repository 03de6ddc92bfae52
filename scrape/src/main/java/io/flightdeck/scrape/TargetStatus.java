package io.flightdeck.scrape;

import io.flightdeck.model.Labels;

/**
 * A snapshot of one active target for the targets API.
 *
 * @param discoveredLabels the labels before target relabelling, {@code __meta_*} included
 * @param labels the target's labels after relabelling, without {@code __}-prefixed ones
 * @param lastScrapeMillis start of the latest scrape, 0 before the first
 * @param lastError why the latest scrape failed, empty when it succeeded
 * @param scrapeInterval the target's {@code __scrape_interval__} label, as in {@code 15s}
 * @param scrapeTimeout the target's {@code __scrape_timeout__} label
 */
public record TargetStatus(
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
