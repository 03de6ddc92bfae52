package io.flightdeck.config;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * Reads one YAML document into a {@link YamlNode} tree with positions. Jackson's own tree drops
 * positions, which every config error needs.
 */
final class YamlTreeReader {
  private static final YAMLFactory FACTORY = new YAMLFactory();

  private YamlTreeReader() {}

  /** The document's root, or null for an empty document. */
  static YamlNode read(String file, String text) {
    try (JsonParser parser = FACTORY.createParser(text)) {
      JsonToken token = parser.nextToken();
      return token == null ? null : node(parser, token);
    } catch (JacksonException e) {
      if (e.getCause() instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
        // SnakeYAML's own problem text and position; Jackson's message spans several lines.
        Mark mark = marked.getProblemMark();
        throw new ConfigException(
            file, mark.getLine() + 1, mark.getColumn() + 1, "", "yaml: " + marked.getProblem());
      }
      JsonLocation at = e.getLocation();
      int line = at == null ? 1 : Math.max(1, at.getLineNr());
      int column = at == null ? 1 : Math.max(1, at.getColumnNr());
      throw new ConfigException(file, line, column, "", "yaml: " + e.getOriginalMessage());
    } catch (IOException e) {
      throw new ConfigException(file, 1, 1, "", "yaml: " + e.getMessage());
    }
  }

  private static YamlNode node(JsonParser p, JsonToken token) throws IOException {
    JsonLocation at = p.currentTokenLocation();
    int line = at.getLineNr();
    int column = at.getColumnNr();
    return switch (token) {
      case START_OBJECT -> {
        List<YamlNode.Entry> entries = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_OBJECT; t = p.nextToken()) {
          JsonLocation keyAt = p.currentTokenLocation();
          String key = p.currentName();
          YamlNode value = node(p, p.nextToken());
          entries.add(new YamlNode.Entry(key, keyAt.getLineNr(), keyAt.getColumnNr(), value));
        }
        yield new YamlNode.Mapping(List.copyOf(entries), line, column);
      }
      case START_ARRAY -> {
        List<YamlNode> items = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
          items.add(node(p, t));
        }
        yield new YamlNode.Sequence(List.copyOf(items), line, column);
      }
      case VALUE_NULL -> new YamlNode.Scalar("", "!!null", line, column);
      case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(p.getText(), "!!bool", line, column);
      case VALUE_NUMBER_INT -> new YamlNode.Scalar(p.getText(), "!!int", line, column);
      case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(p.getText(), "!!float", line, column);
      default -> new YamlNode.Scalar(p.getText(), "!!str", line, column);
    };
  }
}
