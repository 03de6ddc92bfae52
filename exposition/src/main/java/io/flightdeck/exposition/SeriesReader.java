package io.flightdeck.exposition;

import io.flightdeck.model.Labels;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads a series, {@code name{label="value",...}} or the quoted-name form {@code
 * {"name","label.x"="value"}}, and exemplar label sets. The text format tolerates blanks inside
 * braces and a trailing comma; OpenMetrics allows neither.
 */
final class SeriesReader {
  private final int maxLabels;
  private final boolean lenient;
  private final Set<String> seen = new HashSet<>();

  SeriesReader(int maxLabels, boolean lenient) {
    this.maxLabels = maxLabels;
    this.lenient = lenient;
  }

  /** A metric name and optional label set; the result carries {@code __name__}. */
  Labels readSeries(LineCursor c) throws ExpositionParseException {
    Labels.Builder builder = Labels.builder();
    seen.clear();
    if (c.peek() != '{') {
      String name = c.readMetricName("metric name");
      add(c, builder, Labels.METRIC_NAME, name);
      if (c.peek() != '{') {
        return builder.build();
      }
    }
    readBraces(c, builder, true);
    if (!seen.contains(Labels.METRIC_NAME)) {
      throw c.error("metric name missing");
    }
    return builder.build();
  }

  /** A label set in braces without a metric name, as exemplars carry. */
  Labels readLabelSet(LineCursor c) throws ExpositionParseException {
    Labels.Builder builder = Labels.builder();
    seen.clear();
    readBraces(c, builder, false);
    return builder.build();
  }

  private void readBraces(LineCursor c, Labels.Builder builder, boolean nameAllowed)
      throws ExpositionParseException {
    c.expect('{', "\"{\"");
    blanks(c);
    if (c.peek() == '}') {
      c.expect('}', "\"}\"");
      return;
    }
    boolean first = true;
    while (true) {
      readItem(c, builder, nameAllowed && first);
      first = false;
      blanks(c);
      if (c.peek() == '}') {
        c.expect('}', "\"}\"");
        return;
      }
      if (c.peek() != ',') {
        throw c.expected("\",\" or \"}\" after label");
      }
      c.expect(',', "\",\"");
      blanks(c);
      if (lenient && c.peek() == '}') {
        c.expect('}', "\"}\"");
        return;
      }
    }
  }

  private void readItem(LineCursor c, Labels.Builder builder, boolean nameAllowed)
      throws ExpositionParseException {
    boolean quoted = c.peek() == '"';
    String name;
    if (quoted) {
      name = c.readQuoted("label name");
    } else if (c.atIdentifierStart() && c.peek() != ':') {
      name = c.readLabelName("label name");
    } else {
      throw c.expected("label name");
    }
    blanks(c);
    if (c.peek() != '=') {
      if (quoted && nameAllowed && !seen.contains(Labels.METRIC_NAME)) {
        add(c, builder, Labels.METRIC_NAME, name);
        return;
      }
      throw c.expected("\"=\" after label name");
    }
    c.expect('=', "\"=\"");
    blanks(c);
    if (c.peek() != '"') {
      throw c.expected("quoted label value");
    }
    add(c, builder, name, c.readQuoted("label value"));
  }

  private void add(LineCursor c, Labels.Builder builder, String name, String value)
      throws ExpositionParseException {
    if (name.isEmpty()) {
      throw c.error("empty label name");
    }
    if (!seen.add(name)) {
      throw c.error("duplicate label name \"" + name + "\"");
    }
    if (seen.size() > maxLabels) {
      throw c.error("more than " + maxLabels + " labels");
    }
    builder.set(name, value);
  }

  private void blanks(LineCursor c) {
    if (lenient) {
      c.skipBlanks();
    }
  }
}
