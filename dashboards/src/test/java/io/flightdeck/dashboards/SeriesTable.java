package io.flightdeck.dashboards;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A small in-memory series index that answers variable queries as a Prometheus server would, for
 * selectors of the form {@code metric{label op "value", ...}} with the four matcher operators.
 */
final class SeriesTable implements VariableDataSource {
  private static final Pattern SELECTOR =
      Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)?\\s*(?:\\{(.*)\\})?$");
  private static final Pattern MATCHER =
      Pattern.compile(
          "\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"\\s*,?");

  private final List<Map<String, String>> series = new ArrayList<>();
  final List<String> queriesAsked = new ArrayList<>();

  /** Adds a series: {@code name} then label pairs. */
  SeriesTable add(String name, String... labels) {
    Map<String, String> set = new LinkedHashMap<>();
    set.put("__name__", name);
    for (int i = 0; i < labels.length; i += 2) {
      set.put(labels[i], labels[i + 1]);
    }
    series.add(set);
    return this;
  }

  private List<Map<String, String>> select(String selector) {
    queriesAsked.add(selector);
    if (selector.isEmpty()) {
      return series;
    }
    Matcher m = SELECTOR.matcher(selector.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException("unsupported selector " + selector);
    }
    List<Map<String, String>> out = new ArrayList<>();
    for (Map<String, String> set : series) {
      if (m.group(1) != null && !m.group(1).equals(set.get("__name__"))) {
        continue;
      }
      if (m.group(2) == null || matches(m.group(2), set)) {
        out.add(set);
      }
    }
    return out;
  }

  private static boolean matches(String matchers, Map<String, String> set) {
    Matcher m = MATCHER.matcher(matchers);
    int end = 0;
    while (m.find() && m.start() == end) {
      end = m.end();
      String actual = set.getOrDefault(m.group(1), "");
      // A PromQL string literal: one level of backslashes comes off.
      String value = m.group(3).replaceAll("\\\\(.)", "$1");
      boolean ok =
          switch (m.group(2)) {
            case "=" -> actual.equals(value);
            case "!=" -> !actual.equals(value);
            case "=~" -> actual.matches(value);
            default -> !actual.matches(value);
          };
      if (!ok) {
        return false;
      }
    }
    if (end != matchers.length()) {
      throw new IllegalArgumentException("unsupported matchers " + matchers);
    }
    return true;
  }

  @Override
  public List<String> labelNames(String match, long fromMs, long toMs) {
    Set<String> names = new TreeSet<>();
    select(match).forEach(set -> names.addAll(set.keySet()));
    return new ArrayList<>(names);
  }

  @Override
  public List<String> labelValues(String label, String match, long fromMs, long toMs) {
    Set<String> values = new TreeSet<>();
    for (Map<String, String> set : select(match)) {
      if (set.containsKey(label)) {
        values.add(set.get(label));
      }
    }
    return new ArrayList<>(values);
  }

  @Override
  public List<String> queryResult(String expr, long atMs) {
    List<String> out = new ArrayList<>();
    for (Map<String, String> set : select(expr)) {
      out.add(text(set) + " 1 " + atMs);
    }
    return out;
  }

  @Override
  public List<String> series(String match, long fromMs, long toMs) {
    Set<String> out = new LinkedHashSet<>();
    select(match).forEach(set -> out.add(text(set)));
    return new ArrayList<>(out);
  }

  private static String text(Map<String, String> set) {
    StringBuilder out = new StringBuilder(set.get("__name__")).append('{');
    String separator = "";
    for (Map.Entry<String, String> label : set.entrySet()) {
      if (!label.getKey().equals("__name__")) {
        out.append(separator)
            .append(label.getKey())
            .append("=\"")
            .append(label.getValue())
            .append('"');
        separator = ",";
      }
    }
    return out.append('}').toString();
  }
}
