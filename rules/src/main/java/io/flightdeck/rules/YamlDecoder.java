package io.flightdeck.rules;

import io.flightdeck.model.DurationFormat;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Typed reads from a {@link YamlNode} tree, strict like Go's yaml with known fields: type
 * mismatches and unknown fields are collected and reported together by {@link #finish()}, with Go's
 * wording ({@code line 7: field foo not found in type rulefmt.RuleNode}).
 */
class YamlDecoder {
  private final List<String> problems = new ArrayList<>();

  /**
   * @throws YamlException listing every problem collected so far
   */
  void finish() {
    if (!problems.isEmpty()) {
      throw YamlException.unmarshal(problems);
    }
  }

  List<YamlNode.Entry> mapping(YamlNode node, String type) {
    if (node instanceof YamlNode.Mapping m) {
      return m.entries();
    }
    if (!(node instanceof YamlNode.Scalar s && s.isNull())) {
      mismatch(node, type);
    }
    return List.of();
  }

  List<YamlNode> sequence(YamlNode node) {
    if (node instanceof YamlNode.Sequence s) {
      return s.items();
    }
    if (!(node instanceof YamlNode.Scalar s && s.isNull())) {
      mismatch(node, "[]");
    }
    return List.of();
  }

  YamlNode.Scalar scalar(YamlNode node) {
    if (node instanceof YamlNode.Scalar s) {
      return s;
    }
    mismatch(node, "string");
    return null;
  }

  String string(YamlNode node) {
    YamlNode.Scalar s = scalar(node);
    return s == null ? "" : s.text();
  }

  int integer(YamlNode node) {
    YamlNode.Scalar s = scalar(node);
    if (s == null || s.isNull()) {
      return 0;
    }
    try {
      return Integer.parseInt(s.text());
    } catch (NumberFormatException e) {
      problems.add("line %d: cannot unmarshal !!str `%s` into int".formatted(s.line(), s.text()));
      return 0;
    }
  }

  /** Go's model.Duration fails the whole decode, so this throws instead of collecting. */
  Duration duration(YamlNode node) {
    YamlNode.Scalar s = scalar(node);
    if (s == null || s.isNull()) {
      return Duration.ZERO;
    }
    try {
      return DurationFormat.parse(s.text());
    } catch (IllegalArgumentException e) {
      throw new YamlException(e.getMessage());
    }
  }

  Map<String, String> stringMap(YamlNode node) {
    Map<String, String> map = new LinkedHashMap<>();
    for (YamlNode.Entry e : mapping(node, "map[string]string")) {
      map.put(e.key().text(), string(e.value()));
    }
    return map;
  }

  void unknown(YamlNode.Entry e, String type) {
    problems.add(
        "line %d: field %s not found in type %s".formatted(e.key().line(), e.key().text(), type));
  }

  void mismatch(YamlNode node, String type) {
    String shown = node instanceof YamlNode.Scalar s ? " `" + s.text() + "`" : "";
    problems.add(
        "line %d: cannot unmarshal %s%s into %s".formatted(node.line(), node.tag(), shown, type));
  }

  double floating(YamlNode node) {
    YamlNode.Scalar s = scalar(node);
    if (s == null || s.isNull()) {
      return 0;
    }
    String t = s.text();
    switch (t.toLowerCase()) {
      case ".nan", "nan" -> {
        return Double.NaN;
      }
      case ".inf", "+.inf", "inf", "+inf" -> {
        return Double.POSITIVE_INFINITY;
      }
      case "-.inf", "-inf" -> {
        return Double.NEGATIVE_INFINITY;
      }
      default -> {}
    }
    try {
      return Double.parseDouble(t);
    } catch (NumberFormatException e) {
      problems.add("line %d: cannot unmarshal !!str `%s` into float64".formatted(s.line(), t));
      return 0;
    }
  }

  List<String> strings(YamlNode node) {
    List<String> out = new ArrayList<>();
    for (YamlNode item : sequence(node)) {
      out.add(string(item));
    }
    return out;
  }
}
