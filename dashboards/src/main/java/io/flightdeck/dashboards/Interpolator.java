package io.flightdeck.dashboards;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Grafana's variable interpolation: {@code $v}, {@code ${v}}, {@code ${v:format}} and the legacy
 * {@code [[v]]} / {@code [[v:format]]}, with Grafana's formats; in PromQL a variable without a
 * format is written as Grafana's Prometheus source writes it: a multi-value or "All" selection as
 * the regex-escaped alternation {@code (a|b)} (one value escaped, unwrapped), a plain variable with
 * only backslashes and quotes escaped. A reference to an unknown variable is left as written.
 */
public final class Interpolator {
  private static final Pattern REFERENCE =
      Pattern.compile(
          "\\$(\\w+)|\\[\\[(\\w+?)(?::(\\w+))?\\]\\]|\\$\\{(\\w+)(?:\\.([^:^}]+))?(?::([^}]+))?\\}");
  private static final Pattern REGEX_SPECIAL = Pattern.compile("[\\\\^$*+?.()|\\[\\]{}/]");
  private static final Pattern PROMQL_REGEX_SPECIAL = Pattern.compile("[$^*{}\\[\\]'+?.()|]");

  private Interpolator() {}

  /** Interpolates a PromQL expression. */
  public static String promql(String expr, Map<String, VariableValue> values) {
    return interpolate(expr, values, null);
  }

  /**
   * Interpolates text with {@code defaultFormat} for references without one ({@code glob} is
   * Grafana's for text that is not a query; null means the PromQL rule).
   */
  public static String interpolate(
      String text, Map<String, VariableValue> values, String defaultFormat) {
    Matcher matcher = REFERENCE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (matcher.find()) {
      String name = firstNonNull(matcher.group(1), matcher.group(2), matcher.group(4));
      String format = firstNonNull(matcher.group(3), matcher.group(6), defaultFormat);
      VariableValue value = values.get(name);
      String replacement = value == null ? matcher.group() : format(name, value, format);
      matcher.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    matcher.appendTail(out);
    return out.toString();
  }

  /** The variable names a text refers to, in order of first use. */
  public static Set<String> references(String text) {
    Matcher matcher = REFERENCE.matcher(text);
    Set<String> names = new LinkedHashSet<>();
    while (matcher.find()) {
      names.add(firstNonNull(matcher.group(1), matcher.group(2), matcher.group(4)));
    }
    return names;
  }

  static String format(String name, VariableValue value, String format) {
    if (value.customAllValue() != null
        && !"text".equals(format)
        && !"percentencode".equals(format)
        && !"queryparam".equals(format)) {
      return value.customAllValue();
    }
    List<String> values = value.values();
    if (format == null) {
      return promqlFormat(value);
    }
    return switch (format) {
      case "regex" -> alternation(values, Interpolator::regexEscape);
      case "pipe" -> String.join("|", values);
      case "csv", "raw" -> String.join(",", values);
      case "json" -> json(values, value.multiOrAll());
      case "doublequote" ->
          values.stream()
              .map(v -> "\"" + v.replace("\"", "\\\"") + "\"")
              .collect(Collectors.joining(","));
      case "singlequote" ->
          values.stream()
              .map(v -> "'" + v.replace("'", "\\'") + "'")
              .collect(Collectors.joining(","));
      case "text" -> String.join(" + ", values);
      case "percentencode" ->
          percent(
              values.size() > 1 ? "{" + String.join(",", values) + "}" : String.join("", values));
      case "queryparam" ->
          values.stream()
              .map(v -> "var-" + percent(name) + "=" + percent(v))
              .collect(Collectors.joining("&"));
      default -> values.size() > 1 ? "{" + String.join(",", values) + "}" : String.join("", values);
    };
  }

  /** Grafana Prometheus source's {@code interpolateQueryExpr}. */
  private static String promqlFormat(VariableValue value) {
    if (!value.multiOrAll()) {
      return String.join(",", value.values()).replace("\\", "\\\\").replace("'", "\\\\'");
    }
    return alternation(value.values(), Interpolator::promqlRegexEscape);
  }

  private static String alternation(
      List<String> values, java.util.function.UnaryOperator<String> escape) {
    List<String> escaped = values.stream().map(escape).toList();
    return escaped.size() == 1 ? escaped.get(0) : "(" + String.join("|", escaped) + ")";
  }

  /** A value made literal inside a regular expression. */
  public static String regexEscape(String value) {
    return REGEX_SPECIAL.matcher(value).replaceAll(m -> Matcher.quoteReplacement("\\" + m.group()));
  }

  /**
   * A value made literal inside a PromQL regex matcher's string: the regex escape doubled, since
   * the PromQL string literal takes one level of backslashes away.
   */
  public static String promqlRegexEscape(String value) {
    String backslashes = value.replace("\\", "\\\\\\\\");
    return PROMQL_REGEX_SPECIAL
        .matcher(backslashes)
        .replaceAll(m -> Matcher.quoteReplacement("\\\\" + m.group()));
  }

  private static String json(List<String> values, boolean multi) {
    var quoted = values.stream().map(Interpolator::jsonString).toList();
    return multi || quoted.size() != 1 ? "[" + String.join(",", quoted) + "]" : quoted.get(0);
  }

  private static String jsonString(String value) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : value.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }

  private static String percent(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
  }

  @SafeVarargs
  private static <T> T firstNonNull(T... candidates) {
    for (T candidate : candidates) {
      if (candidate != null) {
        return candidate;
      }
    }
    return null;
  }
}
