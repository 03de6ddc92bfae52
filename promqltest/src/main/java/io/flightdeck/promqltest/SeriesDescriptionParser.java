package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Parses {@code metric{label="value"} 1 _ 0+10x3 stale {{count:1}}x2}, the series notation of load
 * blocks and expected results (promqltest-format.md section 6). Problems are reported as {@link
 * IllegalArgumentException}; the caller adds file and line.
 */
final class SeriesDescriptionParser {
  private final String text;
  private int pos;

  private SeriesDescriptionParser(String text) {
    this.text = text;
  }

  static SeriesDescription parse(int line, String text) {
    SeriesDescriptionParser parser = new SeriesDescriptionParser(text);
    Labels labels = parser.metric();
    return new SeriesDescription(line, labels, parser.values());
  }

  private Labels metric() {
    Labels.Builder labels = Labels.builder();
    if (!peek('{')) {
      labels.set(Labels.METRIC_NAME, identifier("metric name"));
    }
    if (peek('{')) {
      labelSet(labels);
    }
    if (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
      throw error("expected a space after the metric");
    }
    return labels.build();
  }

  /** {@code {a="b", "utf8.name"="c", "metric_name"}} with an optional trailing comma. */
  private void labelSet(Labels.Builder labels) {
    expect('{');
    skipSpaces();
    while (!peek('}')) {
      if (peek('"') || peek('\'') || peek('`')) {
        String quoted = ScriptLiterals.unquote(quotedToken());
        skipSpaces();
        if (peek('=')) {
          labels.set(quoted, labelValue());
        } else {
          labels.set(Labels.METRIC_NAME, quoted);
        }
      } else {
        String name = identifier("label name");
        skipSpaces();
        labels.set(name, labelValue());
      }
      skipSpaces();
      if (!peek('}')) {
        expect(',');
        skipSpaces();
      }
    }
    expect('}');
  }

  private String labelValue() {
    expect('=');
    skipSpaces();
    if (!(peek('"') || peek('\'') || peek('`'))) {
      throw error("expected a quoted label value");
    }
    return ScriptLiterals.unquote(quotedToken());
  }

  private String quotedToken() {
    char quote = text.charAt(pos);
    int start = pos++;
    while (pos < text.length() && text.charAt(pos) != quote) {
      if (text.charAt(pos) == '\\' && quote != '`') {
        pos++;
      }
      pos++;
    }
    if (pos >= text.length()) {
      throw error("unterminated quoted string");
    }
    pos++;
    return text.substring(start, pos);
  }

  private String identifier(String what) {
    int start = pos;
    while (pos < text.length() && isIdentifierChar(text.charAt(pos), pos == start)) {
      pos++;
    }
    if (pos == start) {
      throw error("expected a " + what);
    }
    return text.substring(start, pos);
  }

  private static boolean isIdentifierChar(char c, boolean first) {
    return Character.isLetter(c) && c < 128
        || c == '_'
        || c == ':'
        || !first && c >= '0' && c <= '9';
  }

  private List<Optional<SampleValue>> values() {
    List<Optional<SampleValue>> slots = new ArrayList<>();
    skipSpaces();
    while (pos < text.length()) {
      if (text.startsWith("{{", pos)) {
        histogramItem(slots);
      } else {
        int start = pos;
        while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
          pos++;
        }
        floatItem(text.substring(start, pos), slots);
      }
      if (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
        throw error("expected a space between values");
      }
      skipSpaces();
    }
    return slots;
  }

  /** {@code _}, {@code _xN}, {@code v}, {@code vxN}, {@code v+dxN}, {@code v-dxN}. */
  private static void floatItem(String item, List<Optional<SampleValue>> slots) {
    if (item.equals("_")) {
      slots.add(Optional.empty());
      return;
    }
    if (item.startsWith("_x")) {
      slots.addAll(Collections.nCopies(count(item, item.substring(2)), Optional.empty()));
      return;
    }
    int times = item.lastIndexOf('x');
    if (times < 0) {
      slots.add(Optional.of(new SampleValue.Float(value(item))));
      return;
    }
    int repeats = count(item, item.substring(times + 1));
    String head = item.substring(0, times);
    // The operator is the first sign after position 0 that is not an exponent's sign (1e-3).
    int op = -1;
    for (int i = 1; i < head.length(); i++) {
      char c = head.charAt(i);
      char before = head.charAt(i - 1);
      if ((c == '+' || c == '-') && before != 'e' && before != 'E') {
        op = i;
        break;
      }
    }
    double current = value(op < 0 ? head : head.substring(0, op));
    double delta = op < 0 ? 0 : ScriptLiterals.requireNumber(head.substring(op + 1));
    if (op >= 0 && head.charAt(op) == '-') {
      delta = -delta;
    }
    for (int i = 0; i <= repeats; i++) {
      slots.add(Optional.of(new SampleValue.Float(current)));
      // Repeated addition, not start + i * delta: the rounding must match Prometheus's.
      current += delta;
    }
  }

  private static double value(String text) {
    return text.equals("stale") ? StaleMarker.VALUE : ScriptLiterals.requireNumber(text);
  }

  private static int count(String item, String digits) {
    if (digits.isEmpty() || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new IllegalArgumentException("invalid repetition in " + ScriptLiterals.quote(item));
    }
    try {
      return Integer.parseInt(digits);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("repetition too large in " + ScriptLiterals.quote(item));
    }
  }

  /** {@code {{...}}}, {@code {{...}}xN}, {@code {{...}}+{{...}}xN}, {@code {{...}}-{{...}}xN}. */
  private void histogramItem(List<Optional<SampleValue>> slots) {
    HistogramLiteral start = histogram();
    if (peek('+') || peek('-')) {
      boolean subtract = peek('-');
      pos++;
      if (!text.startsWith("{{", pos)) {
        throw error("expected a histogram after " + (subtract ? "-" : "+"));
      }
      HistogramLiteral increment = histogram();
      int repeats = repeatSuffix();
      for (int i = 0; i <= repeats; i++) {
        slots.add(Optional.of(new SampleValue.Histogram(start, increment, i, subtract)));
      }
    } else if (peek('x')) {
      SampleValue value = SampleValue.Histogram.of(start);
      slots.addAll(Collections.nCopies(repeatSuffix() + 1, Optional.of(value)));
    } else {
      slots.add(Optional.of(SampleValue.Histogram.of(start)));
    }
  }

  private HistogramLiteral histogram() {
    int end = text.indexOf("}}", pos);
    if (end < 0) {
      throw error("unterminated histogram, expected }}");
    }
    HistogramLiteral literal = HistogramLiteralParser.parse(text.substring(pos + 2, end));
    pos = end + 2;
    return literal;
  }

  private int repeatSuffix() {
    expect('x');
    int start = pos;
    while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
    String digits = text.substring(start, pos);
    return count("x" + digits, digits);
  }

  private boolean peek(char c) {
    return pos < text.length() && text.charAt(pos) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error("expected '" + c + "'");
    }
    pos++;
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException error(String problem) {
    String found = pos < text.length() ? "'" + text.charAt(pos) + "'" : "end of line";
    return new IllegalArgumentException(
        problem + " at column " + (pos + 1) + " (found " + found + ") in series " + text);
  }
}
