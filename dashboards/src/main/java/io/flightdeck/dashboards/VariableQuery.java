package io.flightdeck.dashboards;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Prometheus variable query in one of the forms of Grafana's Prometheus source: {@code
 * label_names()}, {@code label_values(label)}, {@code label_values(selector, label)}, {@code
 * metrics(regex)}, {@code query_result(expr)}; any other text is a series selector whose series are
 * listed.
 */
public sealed interface VariableQuery {
  /** Label names, of the series matching {@code match} when it is not empty. */
  record LabelNames(String match) implements VariableQuery {}

  /** Values of {@code label}, on the series matching {@code match} when it is not empty. */
  record LabelValues(String match, String label) implements VariableQuery {}

  /** Metric names that contain a match of {@code regex}. */
  record Metrics(String regex) implements VariableQuery {}

  /** Each sample of an instant query, as {@code metric{labels} value timestamp}. */
  record QueryResult(String expr) implements VariableQuery {}

  /** Each series matching the selector, as text. */
  record Series(String match) implements VariableQuery {}

  Pattern LABEL_NAMES = Pattern.compile("^label_names\\(\\s*(.*?)\\s*\\)\\s*$", Pattern.DOTALL);
  Pattern LABEL_VALUES =
      Pattern.compile(
          "^label_values\\((?:(.+),\\s*)?([a-zA-Z_$][a-zA-Z0-9_]*)\\)\\s*$", Pattern.DOTALL);
  Pattern METRICS = Pattern.compile("^metrics\\((.+)\\)\\s*$", Pattern.DOTALL);
  Pattern QUERY_RESULT = Pattern.compile("^query_result\\((.+)\\)\\s*$", Pattern.DOTALL);

  /** The query of that text (already interpolated). */
  static VariableQuery parse(String text) {
    String query = text.trim();
    Matcher m;
    if ((m = LABEL_NAMES.matcher(query)).matches()) {
      return new LabelNames(m.group(1));
    }
    if ((m = LABEL_VALUES.matcher(query)).matches()) {
      return new LabelValues(m.group(1) == null ? "" : m.group(1).trim(), m.group(2));
    }
    if ((m = METRICS.matcher(query)).matches()) {
      return new Metrics(m.group(1).trim());
    }
    if ((m = QUERY_RESULT.matcher(query)).matches()) {
      return new QueryResult(m.group(1).trim());
    }
    return new Series(query);
  }
}
