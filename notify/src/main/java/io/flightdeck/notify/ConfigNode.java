package io.flightdeck.notify;

import io.flightdeck.model.DurationFormat;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value of the raw config tree (maps, lists, strings, nulls) with its field path, so that every
 * error names where it is.
 */
final class ConfigNode {
  private final Object value;
  private final String path;

  ConfigNode(Object value, String path) {
    this.value = value;
    this.path = path;
  }

  String path() {
    return path;
  }

  boolean isAbsent() {
    return value == null;
  }

  NotificationsConfigException error(String reason) {
    return new NotificationsConfigException(path, reason);
  }

  /** The fields of a mapping, rejecting names not in {@code known}; empty when absent. */
  Map<String, ConfigNode> fields(Set<String> known) {
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw error("expected a mapping, got " + describe());
    }
    Map<String, ConfigNode> fields = new LinkedHashMap<>();
    for (var e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      ConfigNode child = new ConfigNode(e.getValue(), path + "." + key);
      if (!known.contains(key)) {
        throw child.error("unknown field");
      }
      fields.put(key, child);
    }
    return fields;
  }

  static ConfigNode get(Map<String, ConfigNode> fields, ConfigNode owner, String key) {
    ConfigNode node = fields.get(key);
    return node != null ? node : new ConfigNode(null, owner.path + "." + key);
  }

  List<ConfigNode> items() {
    if (value == null) {
      return List.of();
    }
    if (!(value instanceof List<?> list)) {
      throw error("expected a list, got " + describe());
    }
    List<ConfigNode> items = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      items.add(new ConfigNode(list.get(i), path + "[" + i + "]"));
    }
    return items;
  }

  String string(String defaultValue) {
    if (value == null) {
      return defaultValue;
    }
    if (!(value instanceof String s)) {
      throw error("expected a string, got " + describe());
    }
    return s;
  }

  String requiredString() {
    String s = string(null);
    if (s == null || s.isEmpty()) {
      throw error("missing");
    }
    return s;
  }

  List<String> strings() {
    List<String> strings = new ArrayList<>();
    for (ConfigNode item : items()) {
      strings.add(item.requiredString());
    }
    return strings;
  }

  Map<String, String> stringMap() {
    if (value == null) {
      return Map.of();
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw error("expected a mapping, got " + describe());
    }
    Map<String, String> out = new LinkedHashMap<>();
    for (var e : map.entrySet()) {
      String key = String.valueOf(e.getKey());
      out.put(key, new ConfigNode(e.getValue(), path + "." + key).string(""));
    }
    return out;
  }

  boolean bool(boolean defaultValue) {
    String s = string(null);
    if (s == null) {
      return defaultValue;
    }
    return switch (s) {
      case "true" -> true;
      case "false" -> false;
      default -> throw error("cannot parse \"" + s + "\" as a boolean");
    };
  }

  int nonNegativeInt(int defaultValue) {
    String s = string(null);
    if (s == null) {
      return defaultValue;
    }
    try {
      int n = Integer.parseInt(s);
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw error("expected a non-negative integer, got \"" + s + "\"");
  }

  /** A duration, or null when absent. */
  Duration duration() {
    String s = string(null);
    if (s == null) {
      return null;
    }
    try {
      return DurationFormat.parse(s);
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A required absolute http or https URL. */
  URI url() {
    String s = requiredString();
    try {
      URI uri = new URI(s);
      if (uri.getScheme() != null
          && (uri.getScheme().equals("http") || uri.getScheme().equals("https"))
          && uri.getHost() != null) {
        return uri;
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    throw error("not an absolute http(s) URL: \"" + s + "\"");
  }

  private String describe() {
    return switch (value) {
      case Map<?, ?> m -> "a mapping";
      case List<?> l -> "a list";
      default -> "\"" + value + "\"";
    };
  }
}
