package io.flightdeck.remote;

import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParseException;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.exposition.ParsedSample;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.StorageUnavailableException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A text-format (0.0.4) body parsed in full before anything is stored, so that a bad line stores
 * nothing. Labels given as overrides replace the body's labels of the same name; a line without a
 * timestamp gets the receive time. Samples are stored in time order, whatever their order in the
 * body.
 */
final class TextBatch {
  /** Rejection messages kept per request; the rest are only counted. */
  private static final int MAX_REPORTED_ERRORS = 5;

  private record Sample(Labels labels, long timestampMillis, double value) {}

  private final List<Sample> samples;
  private final Map<String, MetricMetadata> metadata;

  private TextBatch(List<Sample> samples, Map<String, MetricMetadata> metadata) {
    this.samples = samples;
    this.metadata = metadata;
  }

  /** A batch with no samples, to write stale markers alone. */
  static TextBatch empty() {
    return new TextBatch(List.of(), Map.of());
  }

  /** A batch of known values, all at {@code timestampMillis}. */
  static TextBatch of(
      Map<Labels, Double> values, long timestampMillis, Map<String, MetricMetadata> metadata) {
    List<Sample> samples = new ArrayList<>(values.size());
    values.forEach((labels, value) -> samples.add(new Sample(labels, timestampMillis, value)));
    return new TextBatch(samples, Map.copyOf(metadata));
  }

  static TextBatch parse(byte[] body, Map<String, String> overrides, long nowMillis)
      throws ExpositionParseException {
    ExpositionParser parser =
        ExpositionParser.create(ExpositionFormat.TEXT_0_0_4, body, ParseOptions.defaults());
    List<Sample> samples = new ArrayList<>();
    for (ParsedSample parsed = parser.next(); parsed != null; parsed = parser.next()) {
      Labels labels = parsed.labels();
      if (!overrides.isEmpty()) {
        Labels.Builder builder = labels.toBuilder();
        overrides.forEach(builder::set);
        labels = builder.build();
      }
      samples.add(new Sample(labels, parsed.timestampMs().orElse(nowMillis), parsed.value()));
    }
    // A body may give one series' samples in any order, even with other families between them,
    // as VictoriaMetrics's import takes them; storage takes a series' samples only in time order.
    // The sort is stable, so samples at one time keep the body's order.
    samples.sort(Comparator.comparingLong(Sample::timestampMillis));
    return new TextBatch(samples, Map.copyOf(parser.metadata()));
  }

  /** The distinct series of the body. */
  Set<Labels> series() {
    Set<Labels> series = new LinkedHashSet<>();
    for (Sample sample : samples) {
      series.add(sample.labels());
    }
    return series;
  }

  /**
   * Stores the samples and a stale marker at {@code nowMillis} for each of {@code ended} in one
   * commit. Status codes follow {@link RemoteWriteReceiver}: {@code successStatus} when all were
   * taken; 400 naming the samples refused on their own merits (the others are stored); 503 when
   * storage cannot take writes now, with nothing stored.
   */
  IngestResponse store(
      Appendable storage, Collection<Labels> ended, long nowMillis, int successStatus) {
    List<String> errors = new ArrayList<>();
    int rejected = 0;
    Appender appender = storage.appender();
    try {
      metadata.forEach(appender::updateMetadata);
      for (Sample sample : samples) {
        rejected +=
            append(appender, sample.labels(), sample.timestampMillis(), sample.value(), errors);
      }
      for (Labels series : ended) {
        rejected += append(appender, series, nowMillis, StaleMarker.VALUE, errors);
      }
    } catch (StorageUnavailableException e) {
      appender.rollback();
      return new IngestResponse(503, e.getMessage());
    } catch (RuntimeException e) {
      appender.rollback();
      throw e;
    }
    try {
      appender.commit();
    } catch (StorageUnavailableException e) {
      return new IngestResponse(503, e.getMessage());
    }
    if (rejected == 0) {
      return new IngestResponse(successStatus, "");
    }
    return new IngestResponse(
        400,
        rejected
            + " of "
            + (samples.size() + ended.size())
            + " samples were rejected, the others were stored: "
            + String.join("; ", errors));
  }

  private static int append(
      Appender appender, Labels labels, long timestampMillis, double value, List<String> errors) {
    try {
      appender.append(0, labels, timestampMillis, value);
      return 0;
    } catch (SampleRejectedException e) {
      if (errors.size() < MAX_REPORTED_ERRORS) {
        errors.add(e.getMessage());
      }
      return 1;
    }
  }
}
