package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Prometheus text format 0.0.4. Blank lines and comments other than {@code # HELP} and {@code #
 * TYPE} are ignored; tokens are separated by any run of spaces and tabs; timestamps are integer
 * milliseconds.
 */
final class PrometheusTextParser implements ExpositionParser {
  private final LineReader lines;
  private final SeriesReader series;
  private final FamilyTable families = new FamilyTable(false);

  PrometheusTextParser(byte[] body, ParseOptions options) {
    this.lines = new LineReader(body, options.maxLineBytes());
    this.series = new SeriesReader(options.maxLabels(), true);
  }

  @Override
  public ParsedSample next() throws ExpositionParseException {
    while (lines.advance()) {
      LineCursor c = lines.cursor();
      c.skipBlanks();
      if (c.atEnd()) {
        continue;
      }
      if (c.peek() == '#') {
        readComment(c);
        continue;
      }
      return readSample(c);
    }
    return null;
  }

  @Override
  public Map<String, MetricMetadata> metadata() {
    return families.metadataView();
  }

  private void readComment(LineCursor c) throws ExpositionParseException {
    c.expect('#', "\"#\"");
    if (c.skipBlanks() == 0) {
      return;
    }
    boolean help = c.skip("HELP");
    boolean type = !help && c.skip("TYPE");
    if (!(help || type) || (!c.atEnd() && c.skipBlanks() == 0)) {
      return; // an ordinary comment
    }
    String name = c.peek() == '"' ? c.readQuoted("metric name") : c.readMetricName("metric name");
    Family family = families.declare(name);
    if (help) {
      c.skipBlanks();
      family.setHelp(c.readRestUnescaped(false));
    } else {
      if (c.skipBlanks() == 0) {
        throw c.expected("metric type");
      }
      family.setType(parseType(c));
    }
    families.publish(family);
  }

  private static MetricType parseType(LineCursor c) throws ExpositionParseException {
    String word = c.readUntil(" \t");
    MetricType type =
        switch (word) {
          case "counter" -> MetricType.COUNTER;
          case "gauge" -> MetricType.GAUGE;
          case "histogram" -> MetricType.HISTOGRAM;
          case "summary" -> MetricType.SUMMARY;
          case "untyped" -> MetricType.UNKNOWN;
          default -> null;
        };
    c.skipBlanks();
    if (type == null || !c.atEnd()) {
      throw c.error("invalid metric type \"" + word + "\"");
    }
    return type;
  }

  private ParsedSample readSample(LineCursor c) throws ExpositionParseException {
    Labels labels = series.readSeries(c);
    if (c.skipBlanks() == 0) {
      throw c.expected("blank before value");
    }
    String valueToken = c.readUntil(" \t");
    Double value = Numbers.parseValue(valueToken);
    if (value == null) {
      throw c.error("invalid value \"" + valueToken + "\"");
    }
    OptionalLong timestamp = OptionalLong.empty();
    if (c.skipBlanks() > 0 && !c.atEnd()) {
      String token = c.readUntil(" \t");
      Long millis = Numbers.parseMillis(token);
      if (millis == null) {
        throw c.error("invalid timestamp \"" + token + "\"");
      }
      timestamp = OptionalLong.of(millis);
      c.skipBlanks();
    }
    if (!c.atEnd()) {
      throw c.expected("end of line after sample");
    }
    Family family = families.resolve(labels.metricName()).family();
    family.hasSamples = true;
    return new ParsedSample(
        family.name, family.metadata(), labels, value, timestamp, Optional.empty());
  }
}
