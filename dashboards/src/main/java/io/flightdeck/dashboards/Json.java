package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads fields of a dashboard tree leniently, as Grafana does (numbers written as strings, text
 * written as numbers), and refuses a wrong container type with the field's JSON path.
 */
final class Json {
  static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private Json() {}

  static String path(String parent, String field) {
    return parent + "." + field;
  }

  static String path(String parent, int index) {
    return parent + "[" + index + "]";
  }

  static String typeName(JsonNode node) {
    return switch (node.getNodeType()) {
      case ARRAY -> "an array";
      case OBJECT, POJO -> "an object";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      default -> "null";
    };
  }

  /** Text of a string, number or boolean field; {@code fallback} when absent or null. */
  static String text(JsonNode node, String field, String fallback, String path) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (value.isValueNode()) {
      return value.asText();
    }
    throw new DashboardFormatException(path(path, field), "expected text, got " + typeName(value));
  }

  static String text(JsonNode node, String field, String path) {
    return text(node, field, "", path);
  }

  /** An integer written as a number or numeric text; {@code fallback} when absent, null or "". */
  static int integer(JsonNode node, String field, int fallback, String path) {
    Integer value = optionalInteger(node, field, path);
    return value == null ? fallback : value;
  }

  static Integer optionalInteger(JsonNode node, String field, String path) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || (value.isTextual() && value.asText().isBlank())) {
      return null;
    }
    if (value.isNumber()) {
      return value.asInt();
    }
    if (value.isTextual()) {
      try {
        return (int) Double.parseDouble(value.asText().trim());
      } catch (NumberFormatException e) {
        throw new DashboardFormatException(
            path(path, field), "expected a number, got \"" + value.asText() + "\"");
      }
    }
    if (value.isBoolean()) {
      return value.asBoolean() ? 1 : 0;
    }
    throw new DashboardFormatException(
        path(path, field), "expected a number, got " + typeName(value));
  }

  /** A number written as a number or numeric text, null when absent, null or "". */
  static Double optionalNumber(JsonNode node, String field, String path) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull() || (value.isTextual() && value.asText().isBlank())) {
      return null;
    }
    if (value.isNumber()) {
      return value.asDouble();
    }
    if (value.isTextual()) {
      try {
        return Double.parseDouble(value.asText().trim());
      } catch (NumberFormatException e) {
        throw new DashboardFormatException(
            path(path, field), "expected a number, got \"" + value.asText() + "\"");
      }
    }
    throw new DashboardFormatException(
        path(path, field), "expected a number, got " + typeName(value));
  }

  static boolean bool(JsonNode node, String field, boolean fallback) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return fallback;
    }
    if (value.isTextual()) {
      return Boolean.parseBoolean(value.asText());
    }
    return value.asBoolean(fallback);
  }

  /** An array field; empty when absent or null. */
  static ArrayNode array(JsonNode node, String field, String path) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return NODES.arrayNode();
    }
    if (!value.isArray()) {
      throw new DashboardFormatException(
          path(path, field), "expected an array, got " + typeName(value));
    }
    return (ArrayNode) value;
  }

  /** An object field; empty when absent or null. */
  static ObjectNode object(JsonNode node, String field, String path) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      return NODES.objectNode();
    }
    if (!value.isObject()) {
      throw new DashboardFormatException(
          path(path, field), "expected an object, got " + typeName(value));
    }
    return (ObjectNode) value;
  }

  /** Each element of an array, which must be objects. */
  static List<ObjectNode> objects(JsonNode node, String field, String path) {
    ArrayNode array = array(node, field, path);
    List<ObjectNode> out = new ArrayList<>();
    for (int i = 0; i < array.size(); i++) {
      JsonNode element = array.get(i);
      if (!element.isObject()) {
        throw new DashboardFormatException(
            path(path(path, field), i), "expected an object, got " + typeName(element));
      }
      out.add((ObjectNode) element);
    }
    return out;
  }

  /** Strings of an array of text; a single string counts as a list of one. */
  static List<String> strings(JsonNode node, String field, String path) {
    JsonNode value = node.get(field);
    List<String> out = new ArrayList<>();
    if (value == null || value.isNull()) {
      return out;
    }
    if (value.isValueNode()) {
      out.add(value.asText());
      return out;
    }
    if (!value.isArray()) {
      throw new DashboardFormatException(
          path(path, field), "expected a list of text, got " + typeName(value));
    }
    for (JsonNode element : value) {
      if (!element.isNull()) {
        out.add(element.asText());
      }
    }
    return out;
  }

  /** Whether a value carries nothing: absent, null, false, 0, "", [] or {}. */
  static boolean isEmpty(JsonNode value) {
    if (value == null || value.isNull() || value.isMissingNode()) {
      return true;
    }
    if (value.isBoolean()) {
      return !value.asBoolean();
    }
    if (value.isNumber()) {
      return value.asDouble() == 0;
    }
    if (value.isTextual()) {
      return value.asText().isEmpty();
    }
    return value.isEmpty();
  }
}
