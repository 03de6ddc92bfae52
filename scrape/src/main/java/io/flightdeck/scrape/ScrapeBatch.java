package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.exposition.MetadataCache;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.SampleStream;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.relabel.Relabeler;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import java.util.Map;

/**
 * Parses one scraped body and appends its samples: labels joined with the target's, {@code
 * metric_relabel_configs}, limits, timestamps. A broken limit or a parse error fails the whole
 * scrape; samples storage refuses one by one (out of order, duplicates) are counted and skipped.
 * Series met before are taken from the target's {@link SeriesCache} by their bytes, so only new
 * series have their labels built, joined, relabelled and checked; likewise the target's {@link
 * MetadataCache} spares parsing HELP and TYPE lines that did not change.
 */
final class ScrapeBatch {
  private static final ParseOptions PARSE = ParseOptions.defaults().withStrictOpenMetrics(false);

  /** What one body yielded. */
  record Outcome(
      int scraped,
      int postRelabel,
      int seriesAdded,
      int rejected,
      Map<String, MetricMetadata> metadata) {}

  private ScrapeBatch() {}

  /**
   * Appends the body's samples and records in {@code cache} which series were stored; the caller
   * calls {@link SeriesCache#keepBatch()} once the batch is committed with them.
   */
  static Outcome append(
      Appender appender,
      byte[] body,
      String contentType,
      long scrapeTime,
      ScrapeTarget target,
      ScrapeConfig config,
      SeriesCache cache,
      MetadataCache metadataCache)
      throws ScrapeException {
    SampleStream samples =
        SampleStream.create(
            ResponseFormat.of(contentType, body, config.fallbackScrapeProtocol()),
            body,
            PARSE,
            metadataCache);
    int scraped = 0;
    int kept = 0;
    int added = 0;
    int rejected = 0;
    long sampleLimit = config.limits().sampleLimit();
    try {
      while (samples.advance()) {
        scraped++;
        SeriesCache.Entry entry =
            cache.get(samples.body(), samples.seriesStart(), samples.seriesEnd());
        if (entry == null) {
          entry =
              cache.put(
                  samples.body(),
                  samples.seriesStart(),
                  samples.seriesEnd(),
                  storedLabels(samples.labels(), target, config));
        }
        if (entry.labels == null) {
          continue;
        }
        kept++;
        if (sampleLimit > 0 && kept > sampleLimit) {
          throw new ScrapeException("sample limit exceeded");
        }
        boolean explicit = config.honorTimestamps() && samples.hasTimestamp();
        long timestamp = explicit ? samples.timestampMs() : scrapeTime;
        if (!cache.known(entry)) {
          added++;
        }
        try {
          entry.ref = appender.append(entry.ref, entry.labels, timestamp, samples.value());
          // Series with their own timestamps are not marked stale, as in Prometheus.
          if (!explicit) {
            cache.stored(entry);
          }
        } catch (SampleRejectedException e) {
          rejected++;
        }
      }
    } catch (ExpositionParseException e) {
      throw new ScrapeException(e.getMessage(), e);
    }
    Map<String, MetricMetadata> metadata = Map.copyOf(samples.metadata());
    return new Outcome(scraped, kept, added, rejected, metadata);
  }

  /**
   * A series' labels as stored: joined with the target's and relabelled; null when relabelling
   * drops it. Fails the scrape when a label limit is broken.
   */
  private static Labels storedLabels(Labels sample, ScrapeTarget target, ScrapeConfig config)
      throws ScrapeException {
    Labels labels = SampleLabels.join(sample, target.labels(), config.honorLabels());
    if (!config.metricRelabelConfigs().isEmpty()) {
      labels = Relabeler.process(labels, config.metricRelabelConfigs());
      if (labels == null || labels.isEmpty()) {
        return null;
      }
    }
    if (!labels.has(Labels.METRIC_NAME)) {
      throw new ScrapeException("missing metric name (__name__ label)");
    }
    SampleLabels.checkLimits(labels, config.limits());
    return labels;
  }
}
