package io.flightdeck.rules;

import io.flightdeck.model.DurationFormat;
import io.flightdeck.model.GoQuote;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Sample;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The functions of Prometheus's alert templates and Go's text/template built-ins. Query results are
 * lists of maps with {@code Labels} and {@code Value}, like Prometheus's {@code sample} struct.
 */
final class TemplateFunctions {
  private static final Set<String> NAMES =
      Set.of(
          "and",
          "or",
          "not",
          "len",
          "index",
          "eq",
          "ne",
          "lt",
          "le",
          "gt",
          "ge",
          "print",
          "printf",
          "println",
          "html",
          "js",
          "urlquery",
          "query",
          "first",
          "label",
          "value",
          "strvalue",
          "args",
          "reReplaceAll",
          "safeHtml",
          "match",
          "title",
          "toUpper",
          "toLower",
          "sortByLabel",
          "humanize",
          "humanize1024",
          "humanizeDuration",
          "humanizePercentage",
          "humanizeTimestamp",
          "toTime",
          "toDuration",
          "pathPrefix",
          "externalURL",
          "parseDuration",
          "stripPort",
          "stripDomain",
          "now",
          "graphLink",
          "tableLink");

  private TemplateFunctions() {}

  static boolean exists(String name) {
    return NAMES.contains(name);
  }

  static Object call(String name, List<Object> a, TemplateData data) {
    return switch (name) {
      case "and" -> {
        arity(name, a, 1, -1);
        Object last = null;
        for (Object o : a) {
          last = o;
          if (!Template.truth(o)) {
            break;
          }
        }
        yield last;
      }
      case "or" -> {
        arity(name, a, 1, -1);
        Object last = null;
        for (Object o : a) {
          last = o;
          if (Template.truth(o)) {
            break;
          }
        }
        yield last;
      }
      case "not" -> !Template.truth(one(name, a));
      case "len" ->
          (long)
              switch (one(name, a)) {
                case String s -> s.length();
                case List<?> l -> l.size();
                case Map<?, ?> m -> m.size();
                default -> throw new TemplateException("len of " + GoFormat.typeName(a.get(0)));
              };
      case "index" -> {
        arity(name, a, 2, 2);
        yield switch (a.get(0)) {
          case Map<?, ?> m -> m.containsKey(a.get(1)) ? m.get(a.get(1)) : "";
          case List<?> l -> l.get((int) (long) toLong(a.get(1)));
          default ->
              throw new TemplateException(
                  "can't index item of type " + GoFormat.typeName(a.get(0)));
        };
      }
      case "eq" -> {
        arity(name, a, 2, -1);
        boolean any = false;
        for (int i = 1; i < a.size(); i++) {
          any |= compare(a.get(0), a.get(i)) == 0;
        }
        yield any;
      }
      case "ne" -> two(name, a) && compare(a.get(0), a.get(1)) != 0;
      case "lt" -> two(name, a) && compare(a.get(0), a.get(1)) < 0;
      case "le" -> two(name, a) && compare(a.get(0), a.get(1)) <= 0;
      case "gt" -> two(name, a) && compare(a.get(0), a.get(1)) > 0;
      case "ge" -> two(name, a) && compare(a.get(0), a.get(1)) >= 0;
      case "print" -> sprint(a);
      case "println" -> {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < a.size(); i++) {
          out.append(i > 0 ? " " : "").append(GoFormat.value(a.get(i)));
        }
        yield out.append('\n').toString();
      }
      case "printf" -> {
        arity(name, a, 1, -1);
        yield GoFormat.sprintf(str(a.get(0)), a.subList(1, a.size()));
      }
      case "html" -> escapeHtml(sprint(a));
      case "js" -> sprint(a).replace("\\", "\\\\").replace("'", "\\'").replace("\"", "\\\"");
      case "urlquery" -> URLEncoder.encode(sprint(a), StandardCharsets.UTF_8);
      case "safeHtml", "pathPrefix", "externalURL" ->
          name.equals("safeHtml") ? str(one(name, a)) : externalUrl(name, a, data);
      case "query" -> query(str(one(name, a)), data);
      case "first" -> {
        List<?> l = list(one(name, a));
        if (l.isEmpty()) {
          throw new TemplateException("first() called on vector with no elements");
        }
        yield l.getFirst();
      }
      case "label" -> {
        arity(name, a, 2, 2);
        Object labels = sample(a.get(1)).get("Labels");
        yield ((Map<?, ?>) labels).containsKey(a.get(0)) ? ((Map<?, ?>) labels).get(a.get(0)) : "";
      }
      case "value" -> sample(one(name, a)).get("Value");
      case "strvalue" -> {
        Map<?, ?> labels = (Map<?, ?>) sample(one(name, a)).get("Labels");
        yield labels.containsKey("__value__") ? labels.get("__value__") : "";
      }
      case "args" -> {
        Map<String, Object> out = new LinkedHashMap<>();
        for (int i = 0; i < a.size(); i++) {
          out.put("arg" + i, a.get(i));
        }
        yield out;
      }
      case "reReplaceAll" -> {
        arity(name, a, 3, 3);
        yield TemplateRegex.replaceAll(str(a.get(0)), str(a.get(1)), str(a.get(2)));
      }
      case "match" -> {
        arity(name, a, 2, 2);
        yield TemplateRegex.find(str(a.get(0)), str(a.get(1)));
      }
      case "title" -> title(str(one(name, a)));
      case "toUpper" -> str(one(name, a)).toUpperCase();
      case "toLower" -> str(one(name, a)).toLowerCase();
      case "sortByLabel" -> {
        arity(name, a, 2, 2);
        List<Object> sorted = new ArrayList<>(list(a.get(1)));
        String label = str(a.get(0));
        sorted.sort(
            Comparator.comparing(
                s -> String.valueOf(((Map<?, ?>) sample(s).get("Labels")).get(label)),
                Comparator.nullsFirst(Comparator.naturalOrder())));
        yield sorted;
      }
      case "humanize" -> Humanize.si(toFloat(one(name, a)));
      case "humanize1024" -> Humanize.binary(toFloat(one(name, a)));
      case "humanizeDuration" -> Humanize.duration(toFloat(one(name, a)));
      case "humanizePercentage" -> Humanize.percentage(toFloat(one(name, a)));
      case "humanizeTimestamp", "toTime" -> Humanize.timestamp(toFloat(one(name, a)));
      case "toDuration" -> GoTime.goDuration((long) (toFloat(one(name, a)) * 1000));
      case "parseDuration" -> {
        try {
          yield DurationFormat.parse(str(one(name, a))).toMillis() / 1000.0;
        } catch (IllegalArgumentException e) {
          throw new TemplateException(e.getMessage());
        }
      }
      case "stripPort" -> {
        String s = str(one(name, a));
        int colon = s.lastIndexOf(':');
        yield colon < 0 || s.indexOf(']') > colon ? s : unbracket(s.substring(0, colon));
      }
      case "stripDomain" -> {
        String s = str(one(name, a));
        int colon = s.lastIndexOf(':');
        boolean hasPort = colon > 0 && s.indexOf(':') == colon;
        String host = hasPort ? s.substring(0, colon) : s;
        if (isDottedNumber(host) || host.contains(":")) {
          yield s;
        }
        int dot = host.indexOf('.');
        String shortHost = dot < 0 ? host : host.substring(0, dot);
        yield hasPort ? shortHost + s.substring(colon) : shortHost;
      }
      case "now" -> data.timeMs() / 1000.0;
      case "graphLink", "tableLink" -> {
        String tab = name.equals("graphLink") ? "0" : "1";
        yield "/graph?g0.expr="
            + URLEncoder.encode(str(one(name, a)), StandardCharsets.UTF_8)
            + "&g0.tab="
            + tab;
      }
      default -> throw new TemplateException("function \"" + name + "\" not defined");
    };
  }

  /** An IPv6 host without its brackets: {@code [::1]} is {@code ::1}. */
  private static String unbracket(String host) {
    return host.length() >= 2 && host.startsWith("[") && host.endsWith("]")
        ? host.substring(1, host.length() - 1)
        : host;
  }

  private static boolean isDottedNumber(String host) {
    return !host.isEmpty() && host.chars().allMatch(c -> c == '.' || (c >= '0' && c <= '9'));
  }

  private static String externalUrl(String name, List<Object> a, TemplateData data) {
    arity(name, a, 0, 0);
    String url = data.externalURL() == null ? "" : data.externalURL();
    if (name.equals("externalURL")) {
      return url;
    }
    int slash = url.indexOf('/', url.indexOf("//") + 2);
    return slash < 0 || url.indexOf("//") < 0 ? "" : url.substring(slash);
  }

  private static List<Object> query(String q, TemplateData data) {
    if (data.query() == null) {
      throw new TemplateException("error executing query: no query engine");
    }
    List<Object> out = new ArrayList<>();
    try {
      for (Sample s : data.query().query(PromQL.parse(q), data.timeMs())) {
        Map<String, String> labels = new HashMap<>();
        s.labels().forEach(labels::put);
        out.add(Map.of("Labels", labels, "Value", s.value()));
      }
    } catch (RuntimeException e) {
      throw new TemplateException("error executing query: " + e.getMessage());
    }
    return out;
  }

  private static Map<?, ?> sample(Object o) {
    if (o instanceof Map<?, ?> m && m.containsKey("Labels")) {
      return m;
    }
    throw new TemplateException(
        "wrong type for value; expected sample, got " + GoFormat.typeName(o));
  }

  private static List<?> list(Object o) {
    if (o instanceof List<?> l) {
      return l;
    }
    throw new TemplateException(
        "wrong type for value; expected queryResult, got " + GoFormat.typeName(o));
  }

  private static String sprint(List<Object> a) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < a.size(); i++) {
      boolean bothNonString =
          i > 0 && !(a.get(i) instanceof String) && !(a.get(i - 1) instanceof String);
      out.append(bothNonString ? " " : "").append(GoFormat.value(a.get(i)));
    }
    return out.toString();
  }

  private static String title(String s) {
    StringBuilder out = new StringBuilder(s.length());
    boolean separator = true;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      out.append(separator ? Character.toTitleCase(c) : c);
      separator = !(Character.isLetterOrDigit(c) || c == '_');
    }
    return out.toString();
  }

  private static String escapeHtml(String s) {
    return s.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&#34;")
        .replace("'", "&#39;");
  }

  /** Prometheus's convertToFloat: numbers as they are, strings parsed. */
  static double toFloat(Object o) {
    return switch (o) {
      case Double d -> d;
      case Long l -> l;
      case String s -> {
        try {
          yield Double.parseDouble(s.trim().replace("+Inf", "Infinity").replace("Inf", "Infinity"));
        } catch (NumberFormatException e) {
          throw new TemplateException(
              "strconv.ParseFloat: parsing " + GoQuote.quote(s) + ": invalid syntax");
        }
      }
      default -> throw new TemplateException("can't convert " + GoFormat.typeName(o) + " to float");
    };
  }

  private static Long toLong(Object o) {
    if (o instanceof Long l) {
      return l;
    }
    throw new TemplateException("cannot index slice/array with type " + GoFormat.typeName(o));
  }

  private static String str(Object o) {
    if (o instanceof String s) {
      return s;
    }
    throw new TemplateException(
        "wrong type for value; expected string; got " + GoFormat.typeName(o));
  }

  private static int compare(Object x, Object y) {
    if ((x instanceof Double || x instanceof Long) && (y instanceof Double || y instanceof Long)) {
      return Double.compare(((Number) x).doubleValue(), ((Number) y).doubleValue());
    }
    if (x instanceof String s && y instanceof String t) {
      return s.compareTo(t);
    }
    if (x instanceof Boolean b && y instanceof Boolean c) {
      return b.equals(c) ? 0 : 1;
    }
    throw new TemplateException("incompatible types for comparison");
  }

  private static Object one(String name, List<Object> a) {
    arity(name, a, 1, 1);
    return a.getFirst();
  }

  private static boolean two(String name, List<Object> a) {
    arity(name, a, 2, 2);
    return true;
  }

  private static void arity(String name, List<Object> a, int min, int max) {
    if (a.size() < min || (max >= 0 && a.size() > max)) {
      throw new TemplateException(
          "wrong number of args for %s: want %d got %d".formatted(name, min, a.size()));
    }
  }
}
