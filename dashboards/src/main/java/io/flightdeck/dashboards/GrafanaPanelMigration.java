package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.Set;

/**
 * Brings a Grafana panel of an older type or shape to the modern one, as Grafana's own migrations
 * do: {@code graph} to {@code timeseries}, {@code singlestat} to {@code stat} (or {@code gauge}), a
 * pre-Grafana-9 {@code heatmap} to the new heatmap's options ({@link GrafanaHeatmapMigration}),
 * pre-7 {@code options.fieldOptions} to {@code fieldConfig} plus {@code options.reduceOptions}. The
 * legacy fields are removed from the copy it returns; those that carried something the model cannot
 * hold are reported by path.
 */
final class GrafanaPanelMigration {
  /** Legacy graph fields whose usual values mean nothing to the modern panel. */
  private static final Map<String, String> GRAPH_DEFAULTS =
      Map.of("dashLength", "10", "spaceLength", "10", "renderer", "flot", "pointradius", "2");

  private static final Set<String> GRAPH_CONSUMED =
      Set.of(
          "aliasColors",
          "bars",
          "dashes",
          "fill",
          "fillGradient",
          "hiddenSeries",
          "legend",
          "lines",
          "linewidth",
          "nullPointMode",
          "percentage",
          "points",
          "seriesOverrides",
          "stack",
          "steppedLine",
          "tooltip",
          "yaxes",
          "yaxis",
          "xaxis",
          "thresholds",
          "timeRegions",
          "decimals",
          "dashLength",
          "spaceLength",
          "renderer",
          "pointradius");

  private GrafanaPanelMigration() {}

  /** The panel in modern shape: a copy, with its {@code type} possibly changed. */
  static ObjectNode migrate(ObjectNode source, String path, ReportBuilder report) {
    ObjectNode panel = source.deepCopy();
    String type = panel.path("type").asText("");
    switch (type) {
      case "graph" -> graph(panel, path, report);
      case "singlestat", "grafana-singlestat-panel" -> singlestat(panel, path, report);
      case "heatmap" -> {
        if (GrafanaHeatmapMigration.isAngular(panel)) {
          GrafanaHeatmapMigration.migrate(panel, path);
        }
      }
      default -> {}
    }
    if (panel.path("options").has("fieldOptions")) {
      fieldOptions(panel, path);
    }
    return panel;
  }

  private static void graph(ObjectNode panel, String path, ReportBuilder report) {
    panel.put("type", PanelKinds.TIMESERIES);
    ObjectNode defaults = fieldConfig(panel, path).withObjectProperty("defaults");
    ObjectNode custom = defaults.withObjectProperty("custom");
    boolean bars = Json.bool(panel, "bars", false);
    boolean lines = Json.bool(panel, "lines", true);
    boolean points = Json.bool(panel, "points", false);
    custom.put("drawStyle", bars ? "bars" : lines ? "line" : points ? "points" : "line");
    custom.put("lineWidth", Json.integer(panel, "linewidth", 1, path));
    custom.put("fillOpacity", Json.integer(panel, "fill", 1, path) * 10);
    custom.put("showPoints", points ? "always" : "never");
    custom.put("spanNulls", "connected".equals(panel.path("nullPointMode").asText()));
    custom.put(
        "lineInterpolation", Json.bool(panel, "steppedLine", false) ? "stepAfter" : "linear");
    ObjectNode stacking = custom.putObject("stacking");
    boolean stack = Json.bool(panel, "stack", false);
    stacking.put(
        "mode", !stack ? "none" : Json.bool(panel, "percentage", false) ? "percent" : "normal");
    stacking.put("group", "A");

    ArrayNode yaxes = Json.array(panel, "yaxes", path);
    if (!yaxes.isEmpty() && yaxes.get(0).isObject()) {
      axis(yaxes.get(0), defaults, custom, Json.path(path, "yaxes") + "[0]");
    }
    Integer decimals = Json.optionalInteger(panel, "decimals", path);
    if (decimals != null) {
      defaults.put("decimals", decimals);
    }
    ArrayNode overrides = fieldConfig(panel, path).withArrayProperty("overrides");
    seriesOverrides(panel, yaxes, overrides, path, report);
    aliasColors(panel, overrides, path);

    if (!Json.isEmpty(panel.path("options").get("dataLinks"))) {
      report.unsupported(
          Json.path(path, "options.dataLinks"), "legacy graph data links are not kept");
    }
    ObjectNode options = panel.putObject("options");
    legend(Json.object(panel, "legend", path), options.putObject("legend"));
    ObjectNode tooltip = Json.object(panel, "tooltip", path);
    ObjectNode modernTooltip = options.putObject("tooltip");
    modernTooltip.put("mode", Json.bool(tooltip, "shared", false) ? "multi" : "single");
    int sort = Json.integer(tooltip, "sort", 0, path);
    modernTooltip.put("sort", sort == 1 ? "asc" : sort == 2 ? "desc" : "none");

    reportLegacy(panel, "thresholds", path, report, "legacy graph thresholds are not drawn");
    reportLegacy(panel, "timeRegions", path, report, "time regions are not drawn");
    reportLegacy(panel, "dashes", path, report, "dashed lines are not drawn");
    reportLegacy(panel, "fillGradient", path, report, "gradient fills are not drawn");
    JsonNode xaxis = panel.path("xaxis");
    if (!xaxis.path("mode").asText("time").equals("time")) {
      report.unsupported(
          Json.path(path, "xaxis.mode"), "a graph whose x axis is not time is not supported");
    }
    if (panel.path("yaxis").path("align").asBoolean(false)) {
      report.unsupported(Json.path(path, "yaxis.align"), "aligned y axes are not supported");
    }
    boolean dashes = Json.bool(panel, "dashes", false);
    for (Map.Entry<String, String> entry : GRAPH_DEFAULTS.entrySet()) {
      String field = entry.getKey();
      // A point radius or dash length only shows where points or dashes are drawn.
      boolean shown = field.equals("pointradius") ? points : !field.endsWith("Length") || dashes;
      JsonNode value = panel.get(field);
      if (shown && value != null && !value.isNull() && !value.asText().equals(entry.getValue())) {
        report.unsupported(
            Json.path(path, entry.getKey()), "legacy graph styling is not carried over");
      }
    }
    GRAPH_CONSUMED.forEach(panel::remove);
  }

  private static void axis(JsonNode axis, ObjectNode defaults, ObjectNode custom, String path) {
    String unit = axis.path("format").asText("");
    if (!unit.isEmpty()) {
      defaults.put("unit", unit);
    }
    Double min = Json.optionalNumber(axis, "min", path);
    Double max = Json.optionalNumber(axis, "max", path);
    if (min != null) {
      defaults.put("min", min);
    }
    if (max != null) {
      defaults.put("max", max);
    }
    String label = axis.path("label").asText("");
    if (!label.isEmpty() && !axis.path("label").isNull()) {
      custom.put("axisLabel", label);
    }
    int logBase = Json.integer(axis, "logBase", 1, path);
    ObjectNode scale = custom.putObject("scaleDistribution");
    if (logBase > 1) {
      scale.put("type", "log");
      scale.put("log", logBase);
    } else {
      scale.put("type", "linear");
    }
    if (!Json.bool(axis, "show", true)) {
      custom.put("axisPlacement", "hidden");
    }
  }

  /** {@code seriesOverrides}: the right axis, colours, widths and fills per series. */
  private static void seriesOverrides(
      ObjectNode panel, ArrayNode yaxes, ArrayNode overrides, String path, ReportBuilder report) {
    String base = Json.path(path, "seriesOverrides");
    var list = Json.objects(panel, "seriesOverrides", path);
    for (int i = 0; i < list.size(); i++) {
      ObjectNode override = list.get(i);
      String at = Json.path(base, i);
      String alias = override.path("alias").asText("");
      ObjectNode modern = Json.NODES.objectNode();
      ObjectNode matcher = modern.putObject("matcher");
      boolean regex = alias.length() > 1 && alias.startsWith("/") && alias.endsWith("/");
      matcher.put("id", regex ? "byRegexp" : "byName");
      matcher.put("options", regex ? alias.substring(1, alias.length() - 1) : alias);
      ArrayNode properties = modern.putArray("properties");
      for (Map.Entry<String, JsonNode> field : override.properties()) {
        JsonNode value = field.getValue();
        switch (field.getKey()) {
          case "alias", "$$hashKey" -> {}
          case "yaxis" -> {
            if (value.asInt() == 2) {
              property(properties, "custom.axisPlacement", Json.NODES.textNode("right"));
              if (yaxes.size() > 1 && !yaxes.get(1).path("format").asText("").isEmpty()) {
                property(properties, "unit", yaxes.get(1).get("format"));
              }
            }
          }
          case "color" -> {
            ObjectNode color = Json.NODES.objectNode();
            color.put("mode", "fixed");
            color.put("fixedColor", value.asText());
            property(properties, "color", color);
          }
          case "linewidth" ->
              property(properties, "custom.lineWidth", Json.NODES.numberNode(value.asInt()));
          case "fill" ->
              property(properties, "custom.fillOpacity", Json.NODES.numberNode(value.asInt() * 10));
          default ->
              report.unsupported(Json.path(at, field.getKey()), "series override not mapped");
        }
      }
      if (!properties.isEmpty()) {
        overrides.add(modern);
      }
    }
  }

  private static void aliasColors(ObjectNode panel, ArrayNode overrides, String path) {
    ObjectNode colors = Json.object(panel, "aliasColors", path);
    for (Map.Entry<String, JsonNode> entry : colors.properties()) {
      ObjectNode modern = overrides.addObject();
      modern.putObject("matcher").put("id", "byName").put("options", entry.getKey());
      ObjectNode color = Json.NODES.objectNode();
      color.put("mode", "fixed");
      color.put("fixedColor", entry.getValue().asText());
      property(modern.putArray("properties"), "color", color);
    }
  }

  private static void property(ArrayNode properties, String id, JsonNode value) {
    properties.addObject().put("id", id).set("value", value);
  }

  private static void legend(ObjectNode legacy, ObjectNode legend) {
    boolean show = Json.bool(legacy, "show", true);
    legend.put(
        "displayMode",
        !show ? "hidden" : Json.bool(legacy, "alignAsTable", false) ? "table" : "list");
    legend.put("placement", Json.bool(legacy, "rightSide", false) ? "right" : "bottom");
    ArrayNode calcs = legend.putArray("calcs");
    String[][] names = {
      {"min", "min"}, {"max", "max"}, {"avg", "mean"}, {"current", "lastNotNull"}, {"total", "sum"}
    };
    for (String[] name : names) {
      if (Json.bool(legacy, name[0], false)) {
        calcs.add(name[1]);
      }
    }
    legend.put("showLegend", show);
  }

  private static void singlestat(ObjectNode panel, String path, ReportBuilder report) {
    boolean gauge = panel.path("gauge").path("show").asBoolean(false);
    panel.put("type", gauge ? PanelKinds.GAUGE : PanelKinds.STAT);
    ObjectNode defaults = fieldConfig(panel, path).withObjectProperty("defaults");
    String unit = panel.path("format").asText("");
    if (!unit.isEmpty()) {
      defaults.put("unit", unit);
    }
    Integer decimals = Json.optionalInteger(panel, "decimals", path);
    if (decimals != null) {
      defaults.put("decimals", decimals);
    }
    if (gauge) {
      Double min = Json.optionalNumber(panel.path("gauge"), "minValue", path + ".gauge");
      Double max = Json.optionalNumber(panel.path("gauge"), "maxValue", path + ".gauge");
      if (min != null) {
        defaults.put("min", min);
      }
      if (max != null) {
        defaults.put("max", max);
      }
    }
    ObjectNode thresholds = defaults.putObject("thresholds");
    thresholds.put("mode", "absolute");
    ArrayNode steps = thresholds.putArray("steps");
    var colors = Json.strings(panel, "colors", path);
    String[] levels = panel.path("thresholds").asText("").split(",");
    steps.addObject().put("color", colors.isEmpty() ? "green" : colors.get(0)).putNull("value");
    for (int i = 0; i < levels.length; i++) {
      if (!levels[i].isBlank()) {
        try {
          double level = Double.parseDouble(levels[i].trim());
          String color = colors.size() > i + 1 ? colors.get(i + 1) : "red";
          steps.addObject().put("color", color).put("value", level);
        } catch (NumberFormatException e) {
          throw new DashboardFormatException(
              Json.path(path, "thresholds"), "expected numbers separated by commas");
        }
      }
    }
    ObjectNode options = panel.putObject("options");
    ObjectNode reduce = options.putObject("reduceOptions");
    reduce.putArray("calcs").add(calc(panel.path("valueName").asText("avg")));
    reduce.put("values", false);
    reduce.put("fields", "");
    if (!gauge) {
      options.put(
          "colorMode",
          Json.bool(panel, "colorBackground", false)
              ? "background"
              : Json.bool(panel, "colorValue", false) ? "value" : "none");
      options.put(
          "graphMode", panel.path("sparkline").path("show").asBoolean(false) ? "area" : "none");
      options.put("textMode", "auto");
      options.put("orientation", "auto");
    }
    ArrayNode mappings = defaults.putArray("mappings");
    for (ObjectNode map : Json.objects(panel, "valueMaps", path)) {
      String value = map.path("value").asText();
      if (!value.isEmpty() && !"null".equals(value)) {
        ObjectNode modern = mappings.addObject();
        modern.put("type", "value");
        modern.putObject("options").putObject(value).put("text", map.path("text").asText());
      }
    }
    var rangeMaps = Json.objects(panel, "rangeMaps", path);
    for (int i = 0; i < rangeMaps.size(); i++) {
      ObjectNode map = rangeMaps.get(i);
      String at = Json.path(Json.path(path, "rangeMaps"), i);
      Double from = rangeBound(map, "from", at);
      Double to = rangeBound(map, "to", at);
      if (from == null && to == null) {
        continue; // the singlestat's default {from: "null", to: "null"} matches nothing
      }
      ObjectNode modern = mappings.addObject();
      modern.put("type", "range");
      ObjectNode range = modern.putObject("options");
      if (from != null) {
        range.put("from", from);
      }
      if (to != null) {
        range.put("to", to);
      }
      range.putObject("result").put("text", map.path("text").asText());
    }
    reportLegacy(panel, "prefix", path, report, "singlestat prefix is not drawn");
    reportLegacy(panel, "postfix", path, report, "singlestat postfix is not drawn");
    for (String key :
        Set.of(
            "colorBackground",
            "colorValue",
            "colors",
            "decimals",
            "format",
            "gauge",
            "mappingType",
            "mappingTypes",
            "nullPointMode",
            "nullText",
            "postfix",
            "postfixFontSize",
            "prefix",
            "prefixFontSize",
            "rangeMaps",
            "sparkline",
            "tableColumn",
            "thresholds",
            "valueFontSize",
            "valueMaps",
            "valueName",
            "colorPrefix",
            "colorPostfix")) {
      panel.remove(key);
    }
  }

  /** A range map's bound; old singlestats wrote an open one as the text "null". */
  private static Double rangeBound(ObjectNode map, String field, String path) {
    return "null".equals(map.path(field).asText()) ? null : Json.optionalNumber(map, field, path);
  }

  private static String calc(String valueName) {
    return switch (valueName) {
      case "avg" -> "mean";
      case "current" -> "lastNotNull";
      case "total" -> "sum";
      case "first" -> "firstNotNull";
      case "min", "max", "delta", "diff", "range" -> valueName;
      default -> "lastNotNull";
    };
  }

  /** Pre-7 {@code options.fieldOptions} of gauge, bar gauge and stat panels. */
  private static void fieldOptions(ObjectNode panel, String path) {
    ObjectNode options = (ObjectNode) panel.get("options");
    JsonNode legacy = options.remove("fieldOptions");
    if (!legacy.isObject()) {
      return;
    }
    ObjectNode fieldConfig = fieldConfig(panel, path);
    ObjectNode defaults = fieldConfig.withObjectProperty("defaults");
    JsonNode legacyDefaults = legacy.path("defaults");
    if (legacyDefaults.isObject()) {
      for (Map.Entry<String, JsonNode> entry : legacyDefaults.properties()) {
        if (!"nullValueMode".equals(entry.getKey())) {
          defaults.set(entry.getKey(), entry.getValue());
        }
      }
      JsonNode thresholds = defaults.get("thresholds");
      if (thresholds != null && thresholds.isArray()) {
        ObjectNode modern = Json.NODES.objectNode();
        modern.put("mode", "absolute");
        modern.set("steps", thresholds);
        defaults.set("thresholds", modern);
      }
    }
    if (legacy.path("mappings").isArray() && !legacy.path("mappings").isEmpty()) {
      defaults.set("mappings", legacy.get("mappings"));
    }
    if (legacy.path("overrides").isArray()) {
      fieldConfig.set("overrides", legacy.get("overrides"));
    }
    ObjectNode reduce = options.putObject("reduceOptions");
    reduce.set(
        "calcs",
        legacy.path("calcs").isArray()
            ? legacy.get("calcs")
            : Json.NODES.arrayNode().add("lastNotNull"));
    reduce.put("values", legacy.path("values").asBoolean(false));
    reduce.put("fields", legacy.path("fields").asText(""));
    if (legacy.has("limit")) {
      reduce.set("limit", legacy.get("limit"));
    }
  }

  private static ObjectNode fieldConfig(ObjectNode panel, String path) {
    JsonNode existing = panel.get("fieldConfig");
    if (existing != null && !existing.isNull() && !existing.isObject()) {
      throw new DashboardFormatException(
          Json.path(path, "fieldConfig"), "expected an object, got " + Json.typeName(existing));
    }
    if (existing == null || existing.isNull()) {
      ObjectNode created = Panel.emptyFieldConfig();
      panel.set("fieldConfig", created);
      return created;
    }
    ObjectNode config = (ObjectNode) existing;
    config.withObjectProperty("defaults");
    config.withArrayProperty("overrides");
    return config;
  }

  private static void reportLegacy(
      ObjectNode panel, String field, String path, ReportBuilder report, String reason) {
    if (!Json.isEmpty(panel.get(field))) {
      report.unsupported(Json.path(path, field), reason);
    }
  }
}
