package io.flightdeck.rules;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads the first YAML document of a text into {@link YamlNode}s with positions. Syntax errors and
 * duplicate keys become {@link YamlException}s worded like Go's yaml package, which promtool users
 * know: {@code yaml: line 5: ...} and {@code mapping key "expr" already defined at line 5}.
 */
final class YamlReader {
  private static final YAMLFactory FACTORY = new YAMLFactory();

  private final List<String> unmarshalErrors = new ArrayList<>();

  private YamlReader() {}

  /** The document's root, or null for an empty document. */
  static YamlNode read(String text) {
    YamlReader reader = new YamlReader();
    YamlNode root;
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken first = parser.nextToken();
      root = first == null ? null : reader.node(parser);
    } catch (IOException e) {
      throw new YamlException(syntaxMessage(e));
    }
    if (!reader.unmarshalErrors.isEmpty()) {
      throw YamlException.unmarshal(reader.unmarshalErrors);
    }
    return root;
  }

  private YamlNode node(JsonParser parser) throws IOException {
    JsonLocation at = parser.currentTokenLocation();
    int line = at.getLineNr();
    int column = at.getColumnNr();
    JsonToken token = parser.currentToken();
    if (token == JsonToken.START_OBJECT) {
      List<YamlNode.Entry> entries = new ArrayList<>();
      Map<String, Integer> seen = new HashMap<>();
      while (parser.nextToken() == JsonToken.FIELD_NAME) {
        JsonLocation keyAt = parser.currentTokenLocation();
        String key = parser.currentName();
        YamlNode.Scalar keyNode =
            new YamlNode.Scalar(key, false, keyAt.getLineNr(), keyAt.getColumnNr());
        Integer earlier = seen.putIfAbsent(key, keyAt.getLineNr());
        if (earlier != null) {
          unmarshalErrors.add(
              "line %d: mapping key \"%s\" already defined at line %d"
                  .formatted(keyAt.getLineNr(), key, earlier));
        }
        parser.nextToken();
        entries.add(new YamlNode.Entry(keyNode, node(parser)));
      }
      return new YamlNode.Mapping(List.copyOf(entries), line, column);
    }
    if (token == JsonToken.START_ARRAY) {
      List<YamlNode> items = new ArrayList<>();
      while (parser.nextToken() != JsonToken.END_ARRAY) {
        items.add(node(parser));
      }
      return new YamlNode.Sequence(List.copyOf(items), line, column);
    }
    if (token == JsonToken.VALUE_NULL) {
      return new YamlNode.Scalar("", true, line, column);
    }
    return new YamlNode.Scalar(parser.getText(), false, line, column);
  }

  private static String syntaxMessage(IOException e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
        return "yaml: line %d: %s"
            .formatted(marked.getProblemMark().getLine() + 1, goWording(marked.getProblem()));
      }
    }
    return "yaml: " + e.getMessage();
  }

  /** SnakeYAML and Go's yaml say some things differently; use Go's words for the common ones. */
  private static String goWording(String problem) {
    return switch (problem) {
      case "mapping values are not allowed here" ->
          "mapping values are not allowed in this context";
      default -> problem;
    };
  }
}
