package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Panel plugins between Perses and the model, both ways from one table so that a Perses panel read
 * and written again is the same: TimeSeriesChart, StatChart, GaugeChart, BarChart, Table,
 * HeatmapChart, Markdown and StatusHistoryChart, with units, thresholds, legend and calculation.
 */
final class PersesPanels {
  static final Map<String, String> KIND_TO_PLUGIN =
      Map.of(
          PanelKinds.TIMESERIES, "TimeSeriesChart",
          PanelKinds.STAT, "StatChart",
          PanelKinds.GAUGE, "GaugeChart",
          PanelKinds.BAR_GAUGE, "BarChart",
          PanelKinds.TABLE, "Table",
          PanelKinds.HEATMAP, "HeatmapChart",
          PanelKinds.TEXT, "Markdown",
          PanelKinds.STATE_TIMELINE, "StatusHistoryChart");

  /** Grafana unit to Perses unit where the names differ; the rest keep their name. */
  private static final Map<String, String> UNITS =
      Map.of(
          "percentunit", "percent-decimal",
          "s", "seconds",
          "ms", "milliseconds",
          "short", "decimal",
          "Bps", "bytes/sec",
          "bps", "bits/sec");

  /** Grafana reducer to Perses calculation where the names differ. */
  private static final Map<String, String> CALCS =
      Map.of("lastNotNull", "last-number", "firstNotNull", "first-number");

  private PersesPanels() {}

  static String kindOf(String plugin) {
    for (Map.Entry<String, String> entry : KIND_TO_PLUGIN.entrySet()) {
      if (entry.getValue().equals(plugin)) {
        return entry.getKey();
      }
    }
    return null;
  }

  // ---- model to Perses ----

  static ObjectNode pluginSpec(Panel panel) {
    ObjectNode spec = Json.NODES.objectNode();
    ObjectNode options = panel.options();
    JsonNode defaults = panel.fieldConfig().path("defaults");
    switch (panel.kind()) {
      case PanelKinds.TEXT -> spec.put("text", options.path("content").asText(""));
      case PanelKinds.TIMESERIES -> {
        JsonNode legend = options.path("legend");
        if (legend.isObject() && !"hidden".equals(legend.path("displayMode").asText())) {
          ObjectNode out = spec.putObject("legend");
          out.put("position", legend.path("placement").asText("bottom"));
          out.put("mode", legend.path("displayMode").asText("list"));
          ArrayNode values = out.putArray("values");
          legend.path("calcs").forEach(c -> values.add(toPerses(CALCS, c.asText())));
        }
        ObjectNode axis = Json.NODES.objectNode();
        format(defaults, axis);
        copyNumber(defaults, "min", axis, "min");
        copyNumber(defaults, "max", axis, "max");
        JsonNode custom = defaults.path("custom");
        if (custom.has("axisLabel")) {
          axis.put("label", custom.get("axisLabel").asText());
        }
        if (!axis.isEmpty()) {
          spec.set("yAxis", axis);
        }
        ObjectNode visual = Json.NODES.objectNode();
        if (custom.has("drawStyle")) {
          visual.put("display", "bars".equals(custom.get("drawStyle").asText()) ? "bar" : "line");
        }
        copyNumber(custom, "lineWidth", visual, "lineWidth");
        if (custom.has("fillOpacity")) {
          visual.put("areaOpacity", rounded(custom.get("fillOpacity").asDouble() / 100));
        }
        if (custom.has("spanNulls")) {
          visual.put("connectNulls", custom.get("spanNulls").asBoolean());
        }
        String stacking = custom.path("stacking").path("mode").asText("none");
        if (!stacking.equals("none")) {
          visual.put("stack", stacking.equals("percent") ? "percent" : "all");
        }
        if (!visual.isEmpty()) {
          spec.set("visual", visual);
        }
        thresholds(defaults, spec);
      }
      case PanelKinds.STAT, PanelKinds.GAUGE, PanelKinds.BAR_GAUGE -> {
        JsonNode calcs = options.path("reduceOptions").path("calcs");
        if (calcs.isArray() && !calcs.isEmpty()) {
          spec.put("calculation", toPerses(CALCS, calcs.get(0).asText()));
        }
        ObjectNode format = Json.NODES.objectNode();
        format(defaults, format);
        if (format.has("format")) {
          spec.set("format", format.get("format"));
        }
        if (panel.kind().equals(PanelKinds.GAUGE)) {
          copyNumber(defaults, "max", spec, "max");
        }
        if (panel.kind().equals(PanelKinds.STAT)
            && "area".equals(options.path("graphMode").asText())) {
          spec.putObject("sparkline");
        }
        thresholds(defaults, spec);
      }
      default -> {}
    }
    return spec;
  }

  private static void format(JsonNode defaults, ObjectNode into) {
    ObjectNode format = Json.NODES.objectNode();
    if (defaults.has("unit")) {
      format.put("unit", toPerses(UNITS, defaults.get("unit").asText()));
    }
    if (defaults.has("decimals") && !defaults.get("decimals").isNull()) {
      format.put("decimalPlaces", defaults.get("decimals").asInt());
    }
    if (!format.isEmpty()) {
      into.set("format", format);
    }
  }

  private static void thresholds(JsonNode defaults, ObjectNode spec) {
    JsonNode steps = defaults.path("thresholds").path("steps");
    if (!steps.isArray() || steps.isEmpty()) {
      return;
    }
    ObjectNode thresholds = spec.putObject("thresholds");
    if ("percentage".equals(defaults.path("thresholds").path("mode").asText())) {
      thresholds.put("mode", "percent");
    }
    ArrayNode out = thresholds.putArray("steps");
    for (JsonNode step : steps) {
      if (step.path("value").isNull() || !step.has("value")) {
        thresholds.put("defaultColor", step.path("color").asText());
      } else {
        out.addObject()
            .put("value", step.get("value").asDouble())
            .put("color", step.path("color").asText());
      }
    }
  }

  // ---- Perses to model ----

  /** Fills {@code options} and {@code fieldConfig} from a plugin's spec. */
  static void read(String kind, JsonNode spec, ObjectNode options, ObjectNode fieldConfig) {
    ObjectNode defaults = fieldConfig.withObjectProperty("defaults");
    switch (kind) {
      case PanelKinds.TEXT -> {
        options.put("content", spec.path("text").asText(""));
        options.put("mode", "markdown");
      }
      case PanelKinds.TIMESERIES -> {
        JsonNode legend = spec.path("legend");
        ObjectNode out = options.putObject("legend");
        if (legend.isObject()) {
          out.put("displayMode", legend.path("mode").asText("list"));
          out.put("placement", legend.path("position").asText("bottom"));
          ArrayNode calcs = out.putArray("calcs");
          legend.path("values").forEach(v -> calcs.add(fromPerses(CALCS, v.asText())));
        } else {
          out.put("displayMode", "hidden");
          out.put("placement", "bottom");
          out.putArray("calcs");
        }
        JsonNode axis = spec.path("yAxis");
        unit(axis.path("format"), defaults);
        copyNumber(axis, "min", defaults, "min");
        copyNumber(axis, "max", defaults, "max");
        ObjectNode custom = defaults.withObjectProperty("custom");
        if (axis.has("label")) {
          custom.put("axisLabel", axis.get("label").asText());
        }
        JsonNode visual = spec.path("visual");
        if (visual.has("display")) {
          custom.put("drawStyle", "bar".equals(visual.get("display").asText()) ? "bars" : "line");
        }
        copyNumber(visual, "lineWidth", custom, "lineWidth");
        if (visual.has("areaOpacity")) {
          custom.put("fillOpacity", rounded(visual.get("areaOpacity").asDouble() * 100));
        }
        if (visual.has("connectNulls")) {
          custom.put("spanNulls", visual.get("connectNulls").asBoolean());
        }
        if (visual.has("stack")) {
          custom
              .putObject("stacking")
              .put("mode", "percent".equals(visual.get("stack").asText()) ? "percent" : "normal");
        }
        if (custom.isEmpty()) {
          defaults.remove("custom");
        }
        readThresholds(spec, defaults);
      }
      case PanelKinds.STAT, PanelKinds.GAUGE, PanelKinds.BAR_GAUGE -> {
        if (spec.has("calculation")) {
          ObjectNode reduce = options.putObject("reduceOptions");
          reduce.putArray("calcs").add(fromPerses(CALCS, spec.get("calculation").asText()));
        }
        unit(spec.path("format"), defaults);
        if (kind.equals(PanelKinds.GAUGE)) {
          copyNumber(spec, "max", defaults, "max");
        }
        if (kind.equals(PanelKinds.STAT)) {
          options.put("graphMode", spec.has("sparkline") ? "area" : "none");
        }
        readThresholds(spec, defaults);
      }
      default -> {}
    }
  }

  private static void unit(JsonNode format, ObjectNode defaults) {
    if (format.has("unit")) {
      defaults.put("unit", fromPerses(UNITS, format.get("unit").asText()));
    }
    if (format.has("decimalPlaces")) {
      defaults.put("decimals", format.get("decimalPlaces").asInt());
    }
  }

  private static void readThresholds(JsonNode spec, ObjectNode defaults) {
    JsonNode thresholds = spec.path("thresholds");
    if (!thresholds.isObject()) {
      return;
    }
    ObjectNode out = defaults.putObject("thresholds");
    out.put("mode", "percent".equals(thresholds.path("mode").asText()) ? "percentage" : "absolute");
    ArrayNode steps = out.putArray("steps");
    if (thresholds.has("defaultColor")) {
      steps.addObject().put("color", thresholds.get("defaultColor").asText()).putNull("value");
    }
    for (JsonNode step : thresholds.path("steps")) {
      steps
          .addObject()
          .put("color", step.path("color").asText())
          .put("value", step.path("value").asDouble());
    }
  }

  private static void copyNumber(JsonNode from, String field, ObjectNode to, String as) {
    JsonNode value = from.get(field);
    if (value != null && value.isNumber()) {
      to.set(as, value);
    } else if (value != null && value.isTextual() && !value.asText().isBlank()) {
      try {
        to.put(as, Double.parseDouble(value.asText()));
      } catch (NumberFormatException e) {
        // a non-numeric bound is no bound, as Grafana treats it
      }
    }
  }

  /** Drops the binary noise of scaling by 100, so that values survive a round trip. */
  private static double rounded(double value) {
    return Math.round(value * 1e6) / 1e6;
  }

  private static String toPerses(Map<String, String> table, String name) {
    return table.getOrDefault(name, name);
  }

  private static String fromPerses(Map<String, String> table, String name) {
    for (Map.Entry<String, String> entry : table.entrySet()) {
      if (entry.getValue().equals(name)) {
        return entry.getKey();
      }
    }
    return name;
  }
}
