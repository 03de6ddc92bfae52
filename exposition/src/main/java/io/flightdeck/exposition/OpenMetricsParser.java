package io.flightdeck.exposition;

import io.flightdeck.exposition.OpenMetricsValidator.MetadataKind;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * OpenMetrics 1.0 text. Single spaces separate tokens, every line ends in a newline, the body ends
 * with {@code # EOF}, timestamps are seconds, samples may carry an exemplar after {@code " # "}.
 * With {@link ParseOptions#strictOpenMetrics()} the semantic rules are checked too. As a {@link
 * SampleStream} it parses every sample whole, as the rules across samples need the labels anyway.
 */
final class OpenMetricsParser implements ExpositionParser, SampleStream {
  /** The specification's limit on an exemplar's label names and values together. */
  private static final int MAX_EXEMPLAR_LABEL_CODE_POINTS = 128;

  private final LineReader lines;
  private final SeriesReader series;
  private final FamilyTable families = new FamilyTable(true);
  private final OpenMetricsValidator validator;
  private boolean done;
  private final byte[] body;

  /** The target's metadata lines from its last body, or null to parse every one. */
  private final MetadataCache cache;

  private int seriesStart;
  private int seriesEnd;
  private ParsedSample current;

  OpenMetricsParser(byte[] body, ParseOptions options, MetadataCache cache) {
    this.body = body;
    this.cache = cache;
    if (cache != null) {
      cache.begin();
    }
    this.lines = new LineReader(body, options.maxLineBytes());
    this.series = new SeriesReader(options.maxLabels(), false);
    this.validator = options.strictOpenMetrics() ? new OpenMetricsValidator(families) : null;
  }

  @Override
  public ParsedSample next() throws ExpositionParseException {
    if (done) {
      return null;
    }
    while (lines.advance()) {
      if (lines.isEmpty()) {
        throw new ExpositionParseException("empty line", lines.number(), 0);
      }
      LineCursor c = lines.cursor();
      if (lines.lineEquals("# EOF")) {
        finish(c);
        return null;
      }
      if (!lines.terminated()) {
        throw new ExpositionParseException("missing newline at end of line", lines.number(), 0);
      }
      if (c.peek() == '#') {
        readMetadata(c);
      } else {
        return readSample(c);
      }
    }
    throw new ExpositionParseException("missing \"# EOF\"", Math.max(1, lines.number()), 0);
  }

  @Override
  public boolean advance() throws ExpositionParseException {
    current = next();
    return current != null;
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
  public Labels labels() {
    return current.labels();
  }

  @Override
  public double value() {
    return current.value();
  }

  @Override
  public boolean hasTimestamp() {
    return current.timestampMs().isPresent();
  }

  @Override
  public long timestampMs() {
    return current.timestampMs().orElse(0);
  }

  @Override
  public Map<String, MetricMetadata> metadata() {
    return families.metadataView();
  }

  private void finish(LineCursor c) throws ExpositionParseException {
    done = true;
    if (lines.hasMore()) {
      throw new ExpositionParseException("content after \"# EOF\"", lines.number() + 1, 0);
    }
    if (validator != null) {
      validator.finish(c);
    }
  }

  private void readMetadata(LineCursor c) throws ExpositionParseException {
    MetadataKind kind = null;
    for (MetadataKind candidate : MetadataKind.values()) {
      if (c.skip("# " + candidate + " ")) {
        kind = candidate;
        break;
      }
    }
    if (kind == null) {
      throw c.expected("\"# HELP \", \"# TYPE \", \"# UNIT \" or \"# EOF\"");
    }
    // The validator reports errors at the cursor, so with it every line is read in full.
    MetadataCache.Line known =
        cache == null || validator != null ? null : cache.find(body, lines.start(), lines.end());
    String name;
    String text;
    MetricType type;
    if (known != null) {
      cache.remember(known);
      kind = known.kind();
      name = known.name();
      text = known.text();
      type = known.type();
    } else {
      name = c.peek() == '"' ? c.readQuoted("metric name") : c.readMetricName("metric name");
      if (!c.skip(" ")) {
        throw c.expected("space after metric name in " + kind);
      }
      text = kind == MetadataKind.HELP ? c.readRestUnescaped(true) : c.readUntil("");
      type = kind == MetadataKind.TYPE ? MetricTypes.fromOpenMetrics(text) : null;
      if (kind == MetadataKind.TYPE && type == null) {
        throw c.error("invalid metric type " + LineCursor.quoted(text));
      }
      if (cache != null && validator == null) {
        cache.parsed(body, lines.start(), lines.end(), kind, name, text, type);
      }
    }
    Family family = families.declare(name);
    if (validator != null) {
      validator.beforeMetadata(kind, family, text, c);
    }
    switch (kind) {
      case HELP -> family.setHelp(text);
      case TYPE -> family.setType(type);
      case UNIT -> family.setUnit(text);
    }
    families.publish(family);
  }

  private ParsedSample readSample(LineCursor c) throws ExpositionParseException {
    seriesStart = c.position();
    Labels labels = series.readSeries(c);
    seriesEnd = c.position();
    if (!c.skip(" ")) {
      throw c.expected("space before value");
    }
    double value = readValue(c, "value");
    OptionalLong timestamp = OptionalLong.empty();
    Optional<Exemplar> exemplar = Optional.empty();
    if (c.skip(" ")) {
      boolean exemplarFollows = c.peek() == '#';
      if (!exemplarFollows) {
        timestamp = OptionalLong.of(readTimestamp(c));
        exemplarFollows = c.skip(" ");
      }
      if (exemplarFollows) {
        if (!c.skip("# ")) {
          throw c.expected("\"# \" before exemplar");
        }
        exemplar = Optional.of(readExemplar(c));
      }
    }
    if (!c.atEnd()) {
      throw c.expected("end of line after sample");
    }
    FamilyTable.Resolution resolution = families.resolve(labels.metricName());
    if (validator != null) {
      validator.onSample(resolution, labels, value, timestamp, exemplar.isPresent(), c);
    }
    Family family = resolution.family();
    family.hasSamples = true;
    return new ParsedSample(family.name, family.metadata(), labels, value, timestamp, exemplar);
  }

  private Exemplar readExemplar(LineCursor c) throws ExpositionParseException {
    if (c.peek() != '{') {
      throw c.expected("\"{\" opening exemplar labels");
    }
    Labels labels = series.readLabelSet(c);
    int[] codePoints = {0};
    labels.forEach(
        (name, value) ->
            codePoints[0] +=
                name.codePointCount(0, name.length()) + value.codePointCount(0, value.length()));
    if (codePoints[0] > MAX_EXEMPLAR_LABEL_CODE_POINTS) {
      throw c.error(
          "exemplar labels have "
              + codePoints[0]
              + " code points, more than "
              + MAX_EXEMPLAR_LABEL_CODE_POINTS);
    }
    if (!c.skip(" ")) {
      throw c.expected("space before exemplar value");
    }
    double value = readValue(c, "exemplar value");
    OptionalLong timestamp = OptionalLong.empty();
    if (c.skip(" ")) {
      timestamp = OptionalLong.of(readTimestamp(c));
    }
    return new Exemplar(labels, value, timestamp);
  }

  private static double readValue(LineCursor c, String what) throws ExpositionParseException {
    String token = c.readUntil(" ");
    Double value = Numbers.parseValue(token);
    if (value == null) {
      throw c.error("invalid " + what + " " + LineCursor.quoted(token));
    }
    return value;
  }

  private static long readTimestamp(LineCursor c) throws ExpositionParseException {
    String token = c.readUntil(" ");
    Long millis = Numbers.parseSecondsAsMillis(token);
    if (millis == null) {
      throw c.error("invalid timestamp " + LineCursor.quoted(token));
    }
    return millis;
  }
}
