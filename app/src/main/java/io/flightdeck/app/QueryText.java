package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * A query result as {@code promtool query} prints it: {@code up{job="a"} => 1 @[1700000000]} per
 * sample, a series header then one {@code value @[time]} line per point for matrices, and {@code
 * scalar: 1 @[time]} or {@code string: text @[time]}.
 */
final class QueryText {
  private QueryText() {}

  /** Formats the {@code data} object of a query response; every line ends in a newline. */
  static String format(JsonNode data) {
    StringBuilder out = new StringBuilder();
    JsonNode result = data.path("result");
    switch (data.path("resultType").asText()) {
      case "vector" -> {
        for (JsonNode sample : result) {
          out.append(metric(sample.path("metric"))).append(" => ");
          point(out, sample.path("value")).append('\n');
        }
      }
      case "matrix" -> {
        for (JsonNode series : result) {
          out.append(metric(series.path("metric"))).append(" =>\n");
          for (JsonNode value : series.path("values")) {
            point(out, value).append('\n');
          }
        }
      }
      case "scalar" -> point(out.append("scalar: "), result).append('\n');
      case "string" -> point(out.append("string: "), result).append('\n');
      default -> throw new IllegalStateException("unknown result type in " + data);
    }
    return out.toString();
  }

  private static StringBuilder point(StringBuilder out, JsonNode point) {
    return out.append(point.get(1).asText())
        .append(" @[")
        .append(point.get(0).asText())
        .append(']');
  }

  /** {@code name{a="1", b="2"}}, the metric name outside the braces as Prometheus prints it. */
  static String metric(JsonNode labels) {
    StringBuilder out = new StringBuilder();
    JsonNode name = labels.get("__name__");
    if (name != null) {
      out.append(name.asText());
    }
    StringBuilder pairs = new StringBuilder();
    for (Iterator<Map.Entry<String, JsonNode>> it = labels.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> label = it.next();
      if (label.getKey().equals("__name__")) {
        continue;
      }
      pairs.append(pairs.isEmpty() ? "" : ", ").append(label.getKey()).append("=\"");
      pairs.append(
          label
              .getValue()
              .asText()
              .replace("\\", "\\\\")
              .replace("\"", "\\\"")
              .replace("\n", "\\n"));
      pairs.append('"');
    }
    if (!pairs.isEmpty() || name == null) {
      out.append('{').append(pairs).append('}');
    }
    return out.toString();
  }
}
