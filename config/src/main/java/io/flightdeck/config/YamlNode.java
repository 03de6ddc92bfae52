package io.flightdeck.config;

import java.util.List;

/** A parsed YAML value that remembers where it stood in the file (1-based line and column). */
sealed interface YamlNode {
  int line();

  int column();

  /** A plain or quoted scalar; {@code tag} is YAML's (!!str, !!int, !!bool, !!float, !!null). */
  record Scalar(String text, String tag, int line, int column) implements YamlNode {
    boolean isNull() {
      return tag.equals("!!null");
    }
  }

  /** A mapping in file order; repeated keys are kept so that decoding can report them. */
  record Mapping(List<Entry> entries, int line, int column) implements YamlNode {}

  record Entry(String key, int line, int column, YamlNode value) {}

  record Sequence(List<YamlNode> items, int line, int column) implements YamlNode {}
}
