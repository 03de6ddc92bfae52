package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Compares two {@code data} objects of Prometheus query API answers: same result type, same series
 * (by label set, order ignored), same timestamps, values equal within 1e-6 relative or 1e-9
 * absolute, NaN equal to NaN.
 */
final class PromqlResultComparison {
  private PromqlResultComparison() {}

  /** Null when the answers agree, otherwise what differs first; series order ignored. */
  static String difference(JsonNode expected, JsonNode actual) {
    return difference(expected, actual, false);
  }

  /**
   * As {@link #difference(JsonNode, JsonNode)}; with {@code ordered}, a vector's values must also
   * come in the same order (series with equal values may trade places, as sort leaves ties open).
   */
  static String difference(JsonNode expected, JsonNode actual, boolean ordered) {
    String unordered = differenceIgnoringOrder(expected, actual);
    if (unordered != null || !ordered || !"vector".equals(expected.path("resultType").asText())) {
      return unordered;
    }
    JsonNode e = expected.path("result");
    JsonNode a = actual.path("result");
    for (int i = 0; i < e.size(); i++) {
      String ev = e.get(i).path("value").get(1).asText();
      String av = a.get(i).path("value").get(1).asText();
      if (!ev.equals(av)
          && !close(
              Double.parseDouble(ev.replace("Inf", "Infinity")),
              Double.parseDouble(av.replace("Inf", "Infinity")))) {
        return "order: value " + i + " is " + ev + " but got " + av + " (" + a.get(i) + ")";
      }
    }
    return null;
  }

  private static String differenceIgnoringOrder(JsonNode expected, JsonNode actual) {
    String type = expected.path("resultType").asText();
    if (!type.equals(actual.path("resultType").asText())) {
      return "result type " + type + " but got " + actual.path("resultType").asText();
    }
    JsonNode e = expected.path("result");
    JsonNode a = actual.path("result");
    return switch (type) {
      case "scalar", "string" -> point(e, a, "");
      case "vector" -> series(e, a, "value");
      case "matrix" -> series(e, a, "values");
      default -> "unknown result type " + type;
    };
  }

  private static String series(JsonNode expected, JsonNode actual, String field) {
    Map<String, JsonNode> e = byMetric(expected);
    Map<String, JsonNode> a = byMetric(actual);
    if (!e.keySet().equals(a.keySet())) {
      return "series " + e.keySet() + " but got " + a.keySet();
    }
    for (Map.Entry<String, JsonNode> entry : e.entrySet()) {
      JsonNode ev = entry.getValue().path(field);
      JsonNode av = a.get(entry.getKey()).path(field);
      if (field.equals("value")) {
        String d = point(ev, av, entry.getKey());
        if (d != null) {
          return d;
        }
        continue;
      }
      if (ev.size() != av.size()) {
        return entry.getKey() + ": " + ev.size() + " points but got " + av.size();
      }
      for (int i = 0; i < ev.size(); i++) {
        String d = point(ev.get(i), av.get(i), entry.getKey());
        if (d != null) {
          return d;
        }
      }
    }
    return null;
  }

  private static Map<String, JsonNode> byMetric(JsonNode result) {
    Map<String, JsonNode> out = new TreeMap<>();
    for (JsonNode series : result) {
      out.put(new TreeMap<>(JSON_FIELDS.apply(series.path("metric"))).toString(), series);
    }
    return out;
  }

  private static final java.util.function.Function<JsonNode, Map<String, String>> JSON_FIELDS =
      node -> {
        Map<String, String> labels = new TreeMap<>();
        node.properties().forEach(f -> labels.put(f.getKey(), f.getValue().asText()));
        return labels;
      };

  private static String point(JsonNode expected, JsonNode actual, String series) {
    double et = expected.get(0).asDouble();
    double at = actual.get(0).asDouble();
    if (et != at) {
      return series + ": timestamp " + et + " but got " + at;
    }
    String ev = expected.get(1).asText();
    String av = actual.get(1).asText();
    if (ev.equals(av)) {
      return null;
    }
    try {
      if (close(
          Double.parseDouble(ev.replace("Inf", "Infinity")),
          Double.parseDouble(av.replace("Inf", "Infinity")))) {
        return null;
      }
    } catch (NumberFormatException e) {
      // strings: compared exactly above
    }
    return series + " at " + et + ": " + ev + " but got " + av;
  }

  static boolean close(double expected, double actual) {
    if (Double.isNaN(expected) || Double.isNaN(actual)) {
      return Double.isNaN(expected) && Double.isNaN(actual);
    }
    if (expected == actual) {
      return true;
    }
    double diff = Math.abs(expected - actual);
    return diff <= 1e-9 || diff <= 1e-6 * Math.max(Math.abs(expected), Math.abs(actual));
  }
}
