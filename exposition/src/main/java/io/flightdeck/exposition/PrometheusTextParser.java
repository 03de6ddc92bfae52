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
 * milliseconds. As a {@link SampleStream} it only delimits each series and builds labels on demand.
 */
final class PrometheusTextParser implements ExpositionParser, SampleStream {
  private final byte[] body;
  private final LineReader lines;
  private final SeriesReader series;
  private final FamilyTable families = new FamilyTable(false);
  private final boolean strictMetadata;

  /** The target's metadata lines from its last body, or null to parse every one. */
  private final MetadataCache cache;

  /** Reads the current sample's series on demand, over the whole line for identical errors. */
  private final LineCursor seriesCursor;

  private int lineStart;
  private int lineEnd;
  private int lineNumber;
  private int seriesStart;
  private int seriesEnd;
  private Labels labels;
  private double value;
  private boolean hasTimestamp;
  private long timestamp;

  PrometheusTextParser(byte[] body, ParseOptions options, MetadataCache cache) {
    this.body = body;
    this.cache = cache;
    this.strictMetadata = options.strictTextMetadata();
    if (cache != null) {
      cache.begin();
    }
    this.lines = new LineReader(body, options.maxLineBytes());
    this.series = new SeriesReader(options.maxLabels(), true);
    this.seriesCursor = new LineCursor(body);
  }

  @Override
  public ParsedSample next() throws ExpositionParseException {
    if (!advance()) {
      return null;
    }
    Labels parsed = labels();
    Family family = families.resolve(parsed.metricName()).family();
    if (!family.hasSamples) {
      family.hasSamples = true;
      family.firstSampleLine = lineNumber;
    }
    return new ParsedSample(
        family.name,
        family.metadata(),
        parsed,
        value,
        hasTimestamp ? OptionalLong.of(timestamp) : OptionalLong.empty(),
        Optional.empty());
  }

  @Override
  public boolean advance() throws ExpositionParseException {
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
      readSample(c);
      return true;
    }
    return false;
  }

  @Override
  public byte[] body() {
    return body;
  }

  @Override
  public int seriesStart() {
    return seriesStart;
  }

  @Override
  public int seriesEnd() {
    return seriesEnd;
  }

  @Override
  public Labels labels() throws ExpositionParseException {
    if (labels == null) {
      LineCursor c = seriesCursor;
      c.reset(lineStart, lineEnd, lineNumber);
      c.seek(seriesStart);
      Labels parsed = series.readSeries(c);
      if (c.position() != seriesEnd) {
        throw c.expected("blank before value");
      }
      labels = parsed;
    }
    return labels;
  }

  @Override
  public double value() {
    return value;
  }

  @Override
  public boolean hasTimestamp() {
    return hasTimestamp;
  }

  @Override
  public long timestampMs() {
    return timestamp;
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
    MetadataCache.Line known = cache == null ? null : cache.find(body, lines.start(), lines.end());
    if (known != null) {
      cache.remember(known);
      declare(known.name(), known.text(), known.type());
      return;
    }
    int nameColumn = c.position() - lines.start() + 1;
    String name = c.peek() == '"' ? c.readQuoted("metric name") : c.readMetricName("metric name");
    String text = null;
    MetricType metricType = null;
    if (help) {
      c.skipBlanks();
      text = c.readRestUnescaped(false);
    } else {
      if (c.skipBlanks() == 0) {
        throw c.expected("metric type");
      }
      metricType = parseType(c);
    }
    if (strictMetadata) {
      checkConsistent(families.declare(name), text, metricType, nameColumn);
    }
    declare(name, text, metricType);
    if (cache != null) {
      OpenMetricsValidator.MetadataKind kind =
          help ? OpenMetricsValidator.MetadataKind.HELP : OpenMetricsValidator.MetadataKind.TYPE;
      cache.parsed(body, lines.start(), lines.end(), kind, name, text, metricType);
    }
  }

  /** Refuses a HELP or TYPE line that contradicts what the body said of its family before. */
  private void checkConsistent(Family family, String help, MetricType type, int column)
      throws ExpositionParseException {
    String name = "metric name \"" + family.name + "\"";
    if (type != null && family.hasSamples) {
      throw new ExpositionParseException(
          "TYPE line for " + name + " after its samples (from line " + family.firstSampleLine + ")",
          lines.number(),
          column);
    }
    if (type != null && family.hasType && family.type != type) {
      throw new ExpositionParseException(
          "second TYPE line for "
              + name
              + " with another type: "
              + typeWord(type)
              + ", but "
              + typeWord(family.type)
              + " on line "
              + family.typeLine,
          lines.number(),
          column);
    }
    if (help != null && family.hasHelp && !family.help.equals(help)) {
      throw new ExpositionParseException(
          "second HELP line for " + name + " with another text than on line " + family.helpLine,
          lines.number(),
          column);
    }
    if (type != null && !family.hasType) {
      family.typeLine = lines.number();
    }
    if (help != null && !family.hasHelp) {
      family.helpLine = lines.number();
    }
  }

  private static String typeWord(MetricType type) {
    return type == MetricType.UNKNOWN ? "untyped" : type.name().toLowerCase(java.util.Locale.ROOT);
  }

  /** Applies a HELP ({@code help} set) or TYPE line to its family. */
  private void declare(String name, String help, MetricType type) {
    Family family = families.declare(name);
    if (help != null) {
      family.setHelp(help);
    } else {
      family.setType(type);
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
      throw c.error("invalid metric type " + LineCursor.quoted(word));
    }
    return type;
  }

  /** Delimits the series and reads value and timestamp; the labels wait for {@link #labels()}. */
  private void readSample(LineCursor c) throws ExpositionParseException {
    labels = null;
    lineStart = lines.start();
    lineEnd = lines.end();
    lineNumber = lines.number();
    seriesStart = c.position();
    if (!c.skipSeries()) {
      labels(); // reports what is wrong with the series
      throw c.expected("series"); // not reached: a series that parses can be delimited
    }
    seriesEnd = c.position();
    try {
      readValueAndTimestamp(c);
    } catch (ExpositionParseException e) {
      labels(); // a broken series is the first error on its line
      throw e;
    }
  }

  private void readValueAndTimestamp(LineCursor c) throws ExpositionParseException {
    if (c.skipBlanks() == 0) {
      throw c.expected("blank before value");
    }
    if (c.readPlainDecimal()) {
      value = c.number();
    } else {
      String valueToken = c.readUntil(" \t");
      Double parsed = Numbers.parseValue(valueToken);
      if (parsed == null) {
        throw c.error("invalid value " + LineCursor.quoted(valueToken));
      }
      value = parsed;
    }
    hasTimestamp = false;
    if (c.skipBlanks() > 0 && !c.atEnd()) {
      if (c.readPlainInteger()) {
        timestamp = c.integer();
      } else {
        String token = c.readUntil(" \t");
        Long millis = Numbers.parseMillis(token);
        if (millis == null) {
          throw c.error("invalid timestamp " + LineCursor.quoted(token));
        }
        timestamp = millis;
      }
      hasTimestamp = true;
      c.skipBlanks();
    }
    if (!c.atEnd()) {
      throw c.expected("end of line after sample");
    }
  }
}
