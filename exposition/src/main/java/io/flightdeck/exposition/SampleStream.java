package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import java.util.Map;

/**
 * A pull parser for per-sample hot paths such as scrapes: {@link #advance()} moves to the next
 * sample and reads its value and timestamp, but labels are only built when {@link #labels()} asks.
 * The series as written ({@link #seriesStart()} to {@link #seriesEnd()} of {@link #body()}) is a
 * cache key: within one format, equal bytes always mean equal labels, and bytes that parsed once
 * parse again. So a caller that caches what it derived from the labels by those bytes can skip
 * {@link #labels()} for series it has seen.
 *
 * <p>Errors carry the same text, line and column as {@link ExpositionParser#next()} gives. A
 * malformed series may be reported by {@link #labels()} rather than {@code advance()}, so a caller
 * must ask for the labels of every series it has not cached (cached bytes parsed before); a line
 * that is also wrong after its series reports the series error first, as {@code next()} does. Not
 * thread-safe; what describes the current sample is valid until the next {@code advance()}, and the
 * body array must not change while the stream is in use.
 */
public interface SampleStream {

  /** Moves to the next sample; false at the end of the body. After an exception it is spent. */
  boolean advance() throws ExpositionParseException;

  /** The array the series bytes are in: the body itself. */
  byte[] body();

  /** Offset in {@link #body()} of the current sample's series: its metric name and label set. */
  int seriesStart();

  /** Offset just after the current sample's series. */
  int seriesEnd();

  /** The current sample's labels, {@code __name__} included. */
  Labels labels() throws ExpositionParseException;

  double value();

  boolean hasTimestamp();

  /** The sample's own timestamp in milliseconds; only meaningful if {@link #hasTimestamp()}. */
  long timestampMs();

  /** The metric families declared by metadata lines so far, in order of first appearance. */
  Map<String, MetricMetadata> metadata();

  static SampleStream create(ExpositionFormat format, byte[] body, ParseOptions options) {
    return create(format, body, options, null);
  }

  /**
   * A stream that takes metadata lines unchanged since the last body parsed with {@code cache} from
   * there (not for strict OpenMetrics, whose checks read every line); null parses every line.
   */
  static SampleStream create(
      ExpositionFormat format, byte[] body, ParseOptions options, MetadataCache cache) {
    return switch (format) {
      case TEXT_0_0_4 -> new PrometheusTextParser(body, options, cache);
      case OPENMETRICS_1_0_0 -> new OpenMetricsParser(body, options, cache);
    };
  }
}
