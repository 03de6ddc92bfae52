package io.flightdeck.config;

import io.flightdeck.model.ByteSizeFormat;
import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.GoQuote;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A value being decoded, with the path that names it in errors. An absent field is a node whose
 * value is null and whose position is that of the mapping it is missing from.
 */
final class Node {
  private static final Set<String> TRUE =
      Set.of("y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON");
  private static final Set<String> FALSE =
      Set.of("n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF");

  private final ConfigSource source;
  private final String path;
  private final YamlNode value;
  private final int line;
  private final int column;

  private Node(ConfigSource source, String path, YamlNode value, int line, int column) {
    this.source = source;
    this.path = path;
    this.value = value;
    this.line = line;
    this.column = column;
  }

  static Node root(ConfigSource source, YamlNode value) {
    return new Node(source, "", value, 1, 1);
  }

  String path() {
    return path;
  }

  ConfigSource source() {
    return source;
  }

  ConfigException error(String reason) {
    return new ConfigException(source.name(), line, column, path, reason);
  }

  /** Not written at all. */
  boolean isAbsent() {
    return value == null;
  }

  /** Absent, or written as null or nothing. */
  boolean isNull() {
    return value == null || (value instanceof YamlNode.Scalar s && s.isNull());
  }

  /** The fields of a mapping, rejecting any name not in {@code known}. Null reads as empty. */
  Fields fields(String typeName, Set<String> known) {
    if (isNull()) {
      return new Fields(this, Map.of());
    }
    if (!(value instanceof YamlNode.Mapping mapping)) {
      throw error("cannot unmarshal " + describe() + " into " + typeName);
    }
    Map<String, Node> byName = new LinkedHashMap<>();
    for (YamlNode.Entry e : mapping.entries()) {
      Node child = new Node(source, child(e.key()), e.value(), e.line(), e.column());
      if (!known.contains(e.key())) {
        throw child.error("field " + e.key() + " not found in type " + typeName);
      }
      if (byName.put(e.key(), child) != null) {
        throw child.error("field " + e.key() + " already set in type " + typeName);
      }
    }
    return new Fields(this, byName);
  }

  /** The items of a sequence; null reads as none. */
  List<Node> items(String typeName) {
    if (isNull()) {
      return List.of();
    }
    if (!(value instanceof YamlNode.Sequence seq)) {
      throw error("cannot unmarshal " + describe() + " into " + typeName);
    }
    List<Node> items = new ArrayList<>();
    for (int i = 0; i < seq.items().size(); i++) {
      YamlNode item = seq.items().get(i);
      items.add(new Node(source, path + "[" + i + "]", item, item.line(), item.column()));
    }
    return items;
  }

  /** Any scalar as text, as Go's YAML decoder reads scalars into strings; null reads as "". */
  String string() {
    if (isNull()) {
      return "";
    }
    if (!(value instanceof YamlNode.Scalar s)) {
      throw error("cannot unmarshal " + describe() + " into string");
    }
    return s.text();
  }

  /** Absent reads as {@code whenAbsent}; an explicit null as "", Go's zero value. */
  String string(String whenAbsent) {
    return isAbsent() ? whenAbsent : string();
  }

  List<String> strings() {
    return items("[]string").stream().map(Node::string).toList();
  }

  /** A mapping with free keys, in file order; null reads as empty. */
  Map<String, Node> entries(String typeName) {
    if (isNull()) {
      return Map.of();
    }
    if (!(value instanceof YamlNode.Mapping mapping)) {
      throw error("cannot unmarshal " + describe() + " into " + typeName);
    }
    Map<String, Node> out = new LinkedHashMap<>();
    for (YamlNode.Entry e : mapping.entries()) {
      Node child = new Node(source, child(e.key()), e.value(), e.line(), e.column());
      if (out.put(e.key(), child) != null) {
        throw child.error("key " + GoQuote.quote(e.key()) + " already set in map");
      }
    }
    return out;
  }

  /** A mapping of strings to strings, in file order. */
  Map<String, String> stringMap() {
    Map<String, String> out = new LinkedHashMap<>();
    entries("map[string]string").forEach((key, child) -> out.put(key, child.string()));
    return out;
  }

  boolean bool(boolean whenAbsent) {
    if (isNull()) {
      return whenAbsent;
    }
    String text = string();
    if (TRUE.contains(text)) {
      return true;
    }
    if (FALSE.contains(text)) {
      return false;
    }
    throw error("cannot unmarshal " + describe() + " into bool");
  }

  /** A non-negative integer; 0 when absent. */
  long unsigned() {
    if (isNull()) {
      return 0;
    }
    try {
      long n = Long.parseLong(string());
      if (n >= 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // Reported below with the YAML type, as Go's decoder does.
    }
    throw error("cannot unmarshal " + describe() + " into uint");
  }

  /** A signed integer. */
  int integer(int whenAbsent) {
    if (isNull()) {
      return whenAbsent;
    }
    try {
      return Integer.parseInt(string());
    } catch (NumberFormatException e) {
      throw error("cannot unmarshal " + describe() + " into int");
    }
  }

  /** A Prometheus duration such as {@code 1m30s}. */
  Duration duration(Duration whenAbsent) {
    if (isNull()) {
      return whenAbsent;
    }
    try {
      return DurationFormat.parse(string());
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A byte size such as {@code 10MB}; 0 when absent. */
  long byteSize() {
    if (isNull()) {
      return 0;
    }
    try {
      return ByteSizeFormat.parse(string());
    } catch (IllegalArgumentException e) {
      throw error(e.getMessage());
    }
  }

  /** A file name, relative names taken from the config file's directory; null when absent. */
  Path file() {
    String name = string();
    return name.isEmpty() ? null : source.resolve(name);
  }

  /** A mapping as plain, unmodifiable Java values: maps in file order, lists, strings and nulls. */
  Map<String, Object> rawMapping(String typeName) {
    if (!(value instanceof YamlNode.Mapping)) {
      throw error("cannot unmarshal " + describe() + " into " + typeName);
    }
    @SuppressWarnings("unchecked")
    Map<String, Object> map = (Map<String, Object>) raw(value);
    return map;
  }

  private static Object raw(YamlNode node) {
    return switch (node) {
      case YamlNode.Scalar s -> s.isNull() ? null : s.text();
      case YamlNode.Sequence s -> {
        List<Object> items = new ArrayList<>();
        s.items().forEach(item -> items.add(raw(item)));
        yield Collections.unmodifiableList(items);
      }
      case YamlNode.Mapping m -> {
        Map<String, Object> map = new LinkedHashMap<>();
        m.entries().forEach(e -> map.put(e.key(), raw(e.value())));
        yield Collections.unmodifiableMap(map);
      }
    };
  }

  private String child(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The value as Go's YAML decoder names it in type errors. */
  private String describe() {
    return switch (value) {
      case YamlNode.Mapping m -> "!!map";
      case YamlNode.Sequence s -> "!!seq";
      case YamlNode.Scalar s -> s.tag() + " `" + s.text() + "`";
    };
  }

  /** The named fields of one mapping. */
  static final class Fields {
    private final Node owner;
    private final Map<String, Node> byName;

    private Fields(Node owner, Map<String, Node> byName) {
      this.owner = owner;
      this.byName = byName;
    }

    /** The field, or an absent node positioned at the mapping. */
    Node get(String name) {
      Node node = byName.get(name);
      return node != null
          ? node
          : new Node(owner.source, owner.child(name), null, owner.line, owner.column);
    }

    boolean has(String name) {
      return !get(name).isNull();
    }

    Node owner() {
      return owner;
    }
  }
}
