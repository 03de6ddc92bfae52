package io.flightdeck.scrape;

import io.flightdeck.config.ScrapeConfig;
import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.ParsedSample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.relabel.Relabeler;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import java.util.HashMap;
import java.util.Map;

/**
 * Parses one scraped body and appends its samples: labels joined with the target's, {@code
 * metric_relabel_configs}, limits, timestamps. A broken limit or a parse error fails the whole
 * scrape; samples storage refuses one by one (out of order, duplicates) are counted and skipped.
 */
final class ScrapeBatch {
  private static final ParseOptions PARSE = ParseOptions.defaults().withStrictOpenMetrics(false);

  /**
   * What one body yielded.
   *
   * @param series the series to watch for staleness, with their storage references
   */
  record Outcome(
      int scraped,
      int postRelabel,
      int seriesAdded,
      int rejected,
      Map<Labels, Long> series,
      Map<String, MetricMetadata> metadata) {}

  private ScrapeBatch() {}

  /**
   * @param previous the series of the previous successful scrape, with references
   */
  static Outcome append(
      Appender appender,
      byte[] body,
      String contentType,
      long scrapeTime,
      ScrapeTarget target,
      ScrapeConfig config,
      Map<Labels, Long> previous)
      throws ScrapeException {
    ExpositionParser parser =
        ExpositionParser.create(ExpositionFormat.forContentType(contentType), body, PARSE);
    Map<Labels, Long> current = new HashMap<>();
    int scraped = 0;
    int kept = 0;
    int added = 0;
    int rejected = 0;
    long sampleLimit = config.limits().sampleLimit();
    try {
      for (ParsedSample sample = parser.next(); sample != null; sample = parser.next()) {
        scraped++;
        Labels labels = SampleLabels.join(sample.labels(), target.labels(), config.honorLabels());
        if (!config.metricRelabelConfigs().isEmpty()) {
          labels = Relabeler.process(labels, config.metricRelabelConfigs());
          if (labels == null || labels.isEmpty()) {
            continue;
          }
        }
        if (!labels.has(Labels.METRIC_NAME)) {
          throw new ScrapeException("missing metric name (__name__ label)");
        }
        SampleLabels.checkLimits(labels, config.limits());
        kept++;
        if (sampleLimit > 0 && kept > sampleLimit) {
          throw new ScrapeException("sample limit exceeded");
        }
        boolean explicit = config.honorTimestamps() && sample.timestampMs().isPresent();
        long timestamp = explicit ? sample.timestampMs().getAsLong() : scrapeTime;
        Long known = previous.get(labels);
        if (known == null && !current.containsKey(labels)) {
          added++;
        }
        try {
          long ref = appender.append(known == null ? 0 : known, labels, timestamp, sample.value());
          // Series with their own timestamps are not marked stale, as in Prometheus.
          if (!explicit) {
            current.put(labels, ref);
          }
        } catch (SampleRejectedException e) {
          rejected++;
        }
      }
    } catch (ExpositionParseException e) {
      throw new ScrapeException(e.getMessage(), e);
    }
    Map<String, MetricMetadata> metadata = Map.copyOf(parser.metadata());
    return new Outcome(scraped, kept, added, rejected, current, metadata);
  }
}
