package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What changed between two JSON trees, one line per change with its JSON path: {@code added},
 * {@code removed} or {@code changed old → new}. Long diffs end with how many more changes there
 * were.
 */
final class JsonDiff {
  static final int MAX_LINES = 200;
  private static final int MAX_VALUE_CHARS = 80;

  private JsonDiff() {}

  static List<String> diff(JsonNode before, JsonNode after) {
    List<String> lines = new ArrayList<>();
    walk("$", before, after, lines);
    if (lines.size() > MAX_LINES) {
      int more = lines.size() - MAX_LINES;
      List<String> cut = new ArrayList<>(lines.subList(0, MAX_LINES));
      cut.add("… and " + more + " more changes");
      return cut;
    }
    return lines;
  }

  private static void walk(String path, JsonNode before, JsonNode after, List<String> lines) {
    if (before.equals(after)) {
      return;
    }
    if (before.isObject() && after.isObject()) {
      Set<String> names = new TreeSet<>();
      before.fieldNames().forEachRemaining(names::add);
      after.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String at = path + "." + name;
        if (!after.has(name)) {
          lines.add("removed " + at);
        } else if (!before.has(name)) {
          lines.add("added " + at + " = " + shortText(after.get(name)));
        } else {
          walk(at, before.get(name), after.get(name), lines);
        }
      }
      return;
    }
    if (before.isArray() && after.isArray()) {
      int common = Math.min(before.size(), after.size());
      for (int i = 0; i < common; i++) {
        walk(path + "[" + i + "]", before.get(i), after.get(i), lines);
      }
      for (int i = common; i < before.size(); i++) {
        lines.add("removed " + path + "[" + i + "]");
      }
      for (int i = common; i < after.size(); i++) {
        lines.add("added " + path + "[" + i + "] = " + shortText(after.get(i)));
      }
      return;
    }
    lines.add("changed " + path + ": " + shortText(before) + " → " + shortText(after));
  }

  private static String shortText(JsonNode node) {
    String text = node.toString();
    return text.length() <= MAX_VALUE_CHARS ? text : text.substring(0, MAX_VALUE_CHARS) + "…";
  }
}
