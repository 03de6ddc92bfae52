package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * A heatmap saved before Grafana 9 (the Angular panel: {@code dataFormat}, {@code xBucketSize},
 * {@code yAxis}... beside empty {@code options}) in the shape of today's heatmap, as Grafana brings
 * it over on load: {@code dataFormat: "tsbuckets"} (series that are buckets already, such as
 * Prometheus' {@code le}) is drawn as it is ({@code calculate: false}); any other format has the
 * panel count its series' points in buckets ({@code calculate: true}). The old bucket settings
 * become {@code calculation.xBuckets}/{@code yBuckets} ({@code size} from a bucket size, else
 * {@code count} from a number of buckets); a log y axis makes the rows powers of its base, split by
 * its {@code splitFactor}. Axis, legend, tooltip, card and colour settings move to their new
 * options; the old fields are removed.
 */
final class GrafanaHeatmapMigration {
  /** The Angular heatmap's own fields: any one of them beside empty options marks an old panel. */
  private static final List<String> ANGULAR_FIELDS =
      List.of(
          "dataFormat",
          "xBucketSize",
          "xBucketNumber",
          "yBucketSize",
          "yBucketNumber",
          "yAxis",
          "xAxis",
          "cards",
          "color",
          "heatmap",
          "hideZeroBuckets",
          "highlightCards",
          "reverseYBuckets",
          "yBucketBound",
          "tooltipDecimals",
          "legend",
          "tooltip",
          "data");

  private GrafanaHeatmapMigration() {}

  /** Whether {@code panel} is a heatmap in the Angular panel's shape. */
  static boolean isAngular(ObjectNode panel) {
    return Json.isEmpty(panel.get("options"))
        && ANGULAR_FIELDS.stream()
            .anyMatch(field -> panel.has(field) && !panel.get(field).isNull());
  }

  /** Brings {@code panel} (a copy, changed in place) to the new options. */
  static void migrate(ObjectNode panel, String path) {
    ObjectNode options = Json.NODES.objectNode();
    boolean calculate = !"tsbuckets".equals(panel.path("dataFormat").asText(""));
    options.put("calculate", calculate);
    ObjectNode oldYAxis = Json.object(panel, "yAxis", path);
    String yAxisPath = Json.path(path, "yAxis");
    if (calculate) {
      options.set("calculation", calculation(panel, oldYAxis, path, yAxisPath));
    }
    ObjectNode yAxis = options.putObject("yAxis");
    yAxis.put("axisPlacement", Json.bool(oldYAxis, "show", true) ? "left" : "hidden");
    yAxis.put("reverse", Json.bool(panel, "reverseYBuckets", false));
    copyNumber(oldYAxis, "width", yAxis, "axisWidth", yAxisPath);
    copyNumber(oldYAxis, "min", yAxis, "min", yAxisPath);
    copyNumber(oldYAxis, "max", yAxis, "max", yAxisPath);
    copyNumber(oldYAxis, "decimals", yAxis, "decimals", yAxisPath);
    String unit = oldYAxis.path("format").asText("");
    if (!unit.isEmpty()) {
      yAxis.put("unit", unit);
    }
    options.putObject("rowsFrame").put("layout", layout(panel.path("yBucketBound").asText("")));
    options.putObject("legend").put("show", panel.path("legend").path("show").asBoolean(false));
    ObjectNode tooltip = options.putObject("tooltip");
    tooltip.put("show", panel.path("tooltip").path("show").asBoolean(false));
    tooltip.put("yHistogram", panel.path("tooltip").path("showHistogram").asBoolean(false));
    ObjectNode cards = Json.object(panel, "cards", path);
    Double padding = Json.optionalNumber(cards, "cardPadding", Json.path(path, "cards"));
    options.put("cellGap", padding == null ? 2 : padding == 0 ? 1 : padding);
    copyNumber(cards, "cardRound", options, "cellRadius", Json.path(path, "cards"));
    copyNumber(panel, "tooltipDecimals", options.putObject("cellValues"), "decimals", path);
    options.put("showValue", "never");
    if (Json.bool(panel, "hideZeroBuckets", false)) {
      options.putObject("filterValues").put("le", 1e-9);
    }
    options.set("color", color(Json.object(panel, "color", path), Json.path(path, "color")));
    ANGULAR_FIELDS.forEach(panel::remove);
    panel.set("options", options);
  }

  private static ObjectNode calculation(
      ObjectNode panel, ObjectNode oldYAxis, String path, String yAxisPath) {
    ObjectNode calculation = Json.NODES.objectNode();
    String xSize = bucketSetting(panel, "xBucketSize");
    String xCount = bucketSetting(panel, "xBucketNumber");
    if (xSize != null) {
      buckets(calculation.putObject("xBuckets"), "size", xSize);
    } else if (xCount != null) {
      buckets(calculation.putObject("xBuckets"), "count", xCount);
    }
    String ySize = bucketSetting(panel, "yBucketSize");
    String yCount = bucketSetting(panel, "yBucketNumber");
    if (ySize != null) {
      buckets(calculation.putObject("yBuckets"), "size", ySize);
    } else if (yCount != null) {
      buckets(calculation.putObject("yBuckets"), "count", yCount);
    }
    Double logBase = Json.optionalNumber(oldYAxis, "logBase", yAxisPath);
    if (logBase != null && logBase > 1) {
      // Rows a power of the base high; the split factor cuts each power into that many.
      ObjectNode yBuckets = calculation.putObject("yBuckets");
      yBuckets.put("mode", "count");
      Double split = Json.optionalNumber(oldYAxis, "splitFactor", yAxisPath);
      if (split != null && split > 0) {
        yBuckets.put("value", number(split));
      }
      ObjectNode scale = yBuckets.putObject("scale");
      scale.put("type", "log");
      if (logBase == Math.rint(logBase)) {
        scale.put("log", logBase.intValue());
      } else {
        scale.put("log", logBase);
      }
    }
    return calculation;
  }

  /** A bucket size or count as Grafana reads it: absent when unset, null, empty, 0 or false. */
  private static String bucketSetting(ObjectNode panel, String field) {
    JsonNode value = panel.get(field);
    if (value == null || value.isNull() || value.isBoolean() || value.isContainerNode()) {
      return null;
    }
    if (value.isNumber()) {
      return value.doubleValue() == 0 ? null : number(value.doubleValue());
    }
    String text = value.asText().trim();
    return text.isEmpty() || text.equals("0") ? null : text;
  }

  private static void buckets(ObjectNode buckets, String mode, String value) {
    buckets.put("mode", mode);
    buckets.put("value", value);
  }

  private static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  private static void copyNumber(
      JsonNode from, String field, ObjectNode to, String target, String path) {
    Double value = Json.optionalNumber(from, field, path);
    if (value != null) {
      if (value == Math.rint(value)) {
        to.put(target, value.longValue());
      } else {
        to.put(target, value);
      }
    }
  }

  /** Where a bucket's value sits: the old {@code yBucketBound} names the bucket's side. */
  private static String layout(String bound) {
    return switch (bound) {
      case "upper" -> "ge";
      case "lower" -> "le";
      case "middle" -> "unknown";
      default -> "auto";
    };
  }

  /** The old colour settings: a spectrum's scheme, an opacity's scale, the card colour, bounds. */
  private static ObjectNode color(ObjectNode old, String path) {
    ObjectNode color = Json.NODES.objectNode();
    String mode = old.path("mode").asText("");
    if (mode.equals("opacity")) {
      color.put("mode", "opacity");
      String scale = old.path("scale").asText("");
      if (!scale.isEmpty()) {
        color.put("scale", scale);
      }
    } else {
      color.put("mode", "scheme");
      String scheme = old.path("colorScheme").asText("");
      // Old names carry a prefix ("interpolateOranges"); the new ones do not ("Oranges").
      color.put(
          "scheme",
          scheme.startsWith("interpolate")
              ? scheme.substring(11)
              : scheme.isEmpty() ? "Oranges" : scheme);
    }
    color.put("steps", 128);
    String fill = old.path("cardColor").asText("");
    if (!fill.isEmpty()) {
      color.put("fill", fill);
    }
    Double min = Json.optionalNumber(old, "min", path);
    Double max = Json.optionalNumber(old, "max", path);
    if (min != null && max != null && min > max) {
      color.put("reverse", true);
      Double swap = min;
      min = max;
      max = swap;
    }
    if (min != null) {
      color.put("min", min);
    }
    if (max != null) {
      color.put("max", max);
    }
    return color;
  }
}
