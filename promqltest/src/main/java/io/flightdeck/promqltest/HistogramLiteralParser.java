package io.flightdeck.promqltest;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Parses the inside of a native histogram literal, {@code schema:0 sum:5 buckets:[1 2]}: {@code
 * key:value} pairs in any order, each key at most once (promqltest-format.md section 6.1).
 */
final class HistogramLiteralParser {
  private static final Set<String> HINTS = Set.of("unknown", "reset", "not_reset", "gauge");

  private final String text;
  private int pos;

  private HistogramLiteralParser(String text) {
    this.text = text;
  }

  static HistogramLiteral parse(String text) {
    return new HistogramLiteralParser(text).literal();
  }

  private HistogramLiteral literal() {
    int schema = 0;
    int offset = 0;
    int negativeOffset = 0;
    double sum = 0;
    double count = 0;
    double zeroBucket = 0;
    double zeroThreshold = 0;
    List<Double> buckets = List.of();
    List<Double> negativeBuckets = List.of();
    List<Double> customValues = List.of();
    String hint = null;
    List<String> seen = new ArrayList<>();
    skipSpaces();
    while (pos < text.length()) {
      String key = key();
      if (seen.contains(key)) {
        throw problem("duplicate key " + key);
      }
      seen.add(key);
      skipSpaces();
      switch (key) {
        case "schema" -> schema = integer(key);
        case "offset" -> offset = integer(key);
        case "n_offset" -> negativeOffset = integer(key);
        case "sum" -> sum = ScriptLiterals.requireNumber(token());
        case "count" -> count = ScriptLiterals.requireNumber(token());
        case "z_bucket" -> zeroBucket = ScriptLiterals.requireNumber(token());
        case "z_bucket_w" -> zeroThreshold = ScriptLiterals.requireNumber(token());
        case "buckets" -> buckets = list();
        case "n_buckets" -> negativeBuckets = list();
        case "custom_values" -> customValues = list();
        case "counter_reset_hint" -> {
          hint = token();
          if (!HINTS.contains(hint)) {
            throw problem("invalid counter_reset_hint " + hint);
          }
        }
        default -> throw problem("unknown key " + key);
      }
      skipSpaces();
    }
    return new HistogramLiteral(
        schema,
        sum,
        count,
        zeroBucket,
        zeroThreshold,
        buckets,
        offset,
        negativeBuckets,
        negativeOffset,
        customValues,
        hint);
  }

  private String key() {
    int colon = text.indexOf(':', pos);
    if (colon < 0) {
      throw problem("expected key:value");
    }
    String key = text.substring(pos, colon);
    pos = colon + 1;
    return key;
  }

  private int integer(String key) {
    String token = token();
    try {
      return Integer.parseInt(token);
    } catch (NumberFormatException e) {
      throw problem("invalid integer " + token + " for " + key);
    }
  }

  private List<Double> list() {
    if (pos >= text.length() || text.charAt(pos) != '[') {
      throw problem("expected [");
    }
    int end = text.indexOf(']', pos);
    if (end < 0) {
      throw problem("expected ]");
    }
    List<Double> values = new ArrayList<>();
    for (String item : text.substring(pos + 1, end).trim().split("\\s+")) {
      if (!item.isEmpty()) {
        values.add(ScriptLiterals.requireNumber(item));
      }
    }
    pos = end + 1;
    return values;
  }

  private String token() {
    int start = pos;
    while (pos < text.length() && !Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
    return text.substring(start, pos);
  }

  private void skipSpaces() {
    while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
      pos++;
    }
  }

  private IllegalArgumentException problem(String what) {
    return new IllegalArgumentException(what + " in histogram {{" + text + "}}");
  }
}
