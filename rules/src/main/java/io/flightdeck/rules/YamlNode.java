package io.flightdeck.rules;

import java.util.List;

/**
 * A YAML document as a tree that remembers where each node starts (line and column from 1), so that
 * rule-file errors can point at the offending key the way promtool does.
 */
sealed interface YamlNode {
  int line();

  int column();

  /** A key and its value; keys are always scalars in the files we read. */
  record Entry(Scalar key, YamlNode value) {}

  record Mapping(List<Entry> entries, int line, int column) implements YamlNode {}

  record Sequence(List<YamlNode> items, int line, int column) implements YamlNode {}

  /** A scalar; {@code isNull} for {@code ~}, {@code null} or an empty value. */
  record Scalar(String text, boolean isNull, int line, int column) implements YamlNode {}

  /** Go yaml's words for a node's kind, used in "cannot unmarshal !!seq into string". */
  default String tag() {
    return switch (this) {
      case Mapping m -> "!!map";
      case Sequence s -> "!!seq";
      case Scalar s -> s.isNull() ? "!!null" : "!!str";
    };
  }
}
