package io.flightdeck.dashboards;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Writes JSON in a stable, diff-friendly form for files kept in git: keys sorted, two-space indent,
 * one value per line, {@code "key": value}, a final newline.
 */
public final class StableJson {
  private static final ObjectMapper MAPPER = JsonMapper.builder().build();
  private static final DefaultPrettyPrinter PRINTER;

  static {
    DefaultIndenter indenter = new DefaultIndenter("  ", "\n");
    PRINTER =
        new DefaultPrettyPrinter()
            .withSeparators(
                Separators.createDefaultInstance()
                    .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                    .withObjectEmptySeparator("")
                    .withArrayEmptySeparator(""));
    PRINTER.indentObjectsWith(indenter);
    PRINTER.indentArraysWith(indenter);
  }

  private StableJson() {}

  public static byte[] write(JsonNode tree) {
    try {
      String text = MAPPER.writer(PRINTER).writeValueAsString(sorted(tree));
      return (text + "\n").getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON tree always serialises", e);
    }
  }

  private static JsonNode sorted(JsonNode node) {
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      Collections.sort(names);
      ObjectNode out = Json.NODES.objectNode();
      for (String name : names) {
        out.set(name, sorted(node.get(name)));
      }
      return out;
    }
    if (node.isArray()) {
      ArrayNode out = Json.NODES.arrayNode();
      node.forEach(element -> out.add(sorted(element)));
      return out;
    }
    return node;
  }
}
