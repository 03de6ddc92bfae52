package io.flightdeck.exposition;

import io.flightdeck.model.MetricMetadata;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A pull parser over one exposition body: each {@link #next()} parses lines up to the next sample.
 * Not thread-safe; the body array must not change while the parser is in use.
 */
public interface ExpositionParser {

  /**
   * The next sample, or {@code null} at the end of the body. After an exception the parser is
   * spent.
   */
  ParsedSample next() throws ExpositionParseException;

  /** The metric families declared by metadata lines so far, in order of first appearance. */
  Map<String, MetricMetadata> metadata();

  static ExpositionParser create(ExpositionFormat format, byte[] body, ParseOptions options) {
    return switch (format) {
      case TEXT_0_0_4 -> new PrometheusTextParser(body, options, null);
      case OPENMETRICS_1_0_0 -> new OpenMetricsParser(body, options, null);
    };
  }

  static ExpositionParser create(ExpositionFormat format, byte[] body) {
    return create(format, body, ParseOptions.defaults());
  }

  /** Every sample of a body, for callers that do not need to stream. */
  static List<ParsedSample> parseAll(ExpositionFormat format, byte[] body, ParseOptions options)
      throws ExpositionParseException {
    ExpositionParser parser = create(format, body, options);
    List<ParsedSample> samples = new ArrayList<>();
    for (ParsedSample sample = parser.next(); sample != null; sample = parser.next()) {
      samples.add(sample);
    }
    return samples;
  }
}
