package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Grafana's panel steps below schemaVersion 16, in place: {@code graphite} panels are graphs, a
 * graph's boolean {@code legend}, {@code y_format}s, {@code aliasYAxis} and {@code grid} (axis
 * bounds, log bases, thresholds) become {@code legend}, {@code yaxes}, {@code xaxis} and series
 * overrides; old singlestat and table thresholds lose their first value. What is left is the shape
 * that {@link GrafanaPanelMigration} brings to the modern one.
 */
final class GrafanaLegacyPanel {
  /**
   * Panel fields of Grafana 1 to 4 that did nothing by Grafana 5 (the graph drew with flot, edits
   * were always allowed); Grafana keeps them in the JSON and ignores them, and so do we.
   */
  private static final List<String> INERT =
      List.of(
          "editable",
          "error",
          "isNew",
          "loadingEditor",
          "spyable",
          "interactive",
          "annotate",
          "resolution",
          "scale",
          "zerofill",
          "legend_counts",
          "style");

  private GrafanaLegacyPanel() {}

  static void upgrade(ObjectNode panel, String path, int schemaVersion, ReportBuilder report) {
    if ("graphite".equals(panel.path("type").asText())) {
      panel.put("type", "graph");
    }
    switch (panel.path("type").asText("")) {
      case "graph" -> graph(panel, path, report);
      case "singlestat" -> {
        if (schemaVersion < 9) {
          singlestatThresholds(panel);
        }
      }
      case "table" -> {
        if (schemaVersion < 10) {
          tableThresholds(panel);
        }
      }
      default -> {}
    }
    for (String field : INERT) {
      panel.remove(field);
    }
    links(panel, path, report);
  }

  private static void graph(ObjectNode panel, String path, ReportBuilder report) {
    JsonNode legend = panel.get("legend");
    if (legend != null && legend.isBoolean()) {
      panel.putObject("legend").put("show", legend.asBoolean());
    }
    ObjectNode grid = Json.object(panel, "grid", path);
    String gridPath = Json.path(path, "grid");
    // Grafana 1 named the left axis bounds min and max.
    moveIfSet(grid, "min", "leftMin");
    moveIfSet(grid, "max", "leftMax");
    List<JsonNode> formats = new ArrayList<>();
    panel.path("y_formats").forEach(formats::add);
    while (formats.size() < 2) {
      formats.add(null);
    }
    if (!Json.isEmpty(panel.get("y_format"))) {
      formats.set(0, panel.get("y_format"));
    }
    if (!Json.isEmpty(panel.get("y2_format"))) {
      formats.set(1, panel.get("y2_format"));
    }
    aliasYAxis(panel, path);
    boolean oldAxes =
        panel.has("grid") || panel.has("y_formats") || panel.has("y_format") || panel.has("y-axis");
    if (oldAxes && isAbsent(panel.get("yaxes"))) {
      boolean showY = Json.bool(panel, "y-axis", true);
      ArrayNode yaxes = panel.putArray("yaxes");
      yaxes.add(axis(showY, grid, "left", formats.get(0), panel.get("leftYAxisLabel"), gridPath));
      yaxes.add(axis(showY, grid, "right", formats.get(1), panel.get("rightYAxisLabel"), gridPath));
      if (isAbsent(panel.get("xaxis"))) {
        panel.putObject("xaxis").put("show", Json.bool(panel, "x-axis", true));
      }
    }
    for (String side : List.of("left", "right")) {
      grid.remove(List.of(side + "Min", side + "Max", side + "LogBase"));
    }
    gridThresholds(grid, gridPath, report);
    for (Map.Entry<String, JsonNode> field : grid.properties()) {
      if (!Json.isEmpty(field.getValue())) {
        report.unsupported(Json.path(gridPath, field.getKey()), "graph grid field not supported");
      }
    }
    panel.remove(
        List.of(
            "grid",
            "y_formats",
            "y_format",
            "y2_format",
            "leftYAxisLabel",
            "rightYAxisLabel",
            "y-axis",
            "x-axis"));
  }

  private static ObjectNode axis(
      boolean show,
      ObjectNode grid,
      String side,
      JsonNode format,
      JsonNode label,
      String gridPath) {
    ObjectNode axis = Json.NODES.objectNode();
    axis.put("show", show);
    axis.set("min", grid.get(side + "Min"));
    axis.set("max", grid.get(side + "Max"));
    axis.put("logBase", Json.integer(grid, side + "LogBase", 1, gridPath));
    axis.put("format", Json.isEmpty(format) ? "short" : format.asText());
    if (!Json.isEmpty(label)) {
      axis.set("label", label);
    }
    return axis;
  }

  /**
   * The two thresholds of a graph before 13 ({@code grid.threshold1}, {@code threshold2}) are not
   * drawn, as the later {@code thresholds} list is not: named by their old path.
   */
  private static void gridThresholds(ObjectNode grid, String gridPath, ReportBuilder report) {
    for (String threshold : List.of("threshold1", "threshold2")) {
      JsonNode value = grid.remove(threshold);
      if (value != null && !value.isNull() && !value.asText().isBlank()) {
        report.unsupported(Json.path(gridPath, threshold), "legacy graph thresholds are not drawn");
      }
      grid.remove(threshold + "Color");
    }
    grid.remove("thresholdLine");
  }

  /** Before 4 a graph put series on the right axis by {@code aliasYAxis: {alias: 2}}. */
  private static void aliasYAxis(ObjectNode panel, String path) {
    ObjectNode aliases = Json.object(panel, "aliasYAxis", path);
    if (!aliases.isEmpty()) {
      ArrayNode overrides = Json.array(panel, "seriesOverrides", path);
      panel.set("seriesOverrides", overrides);
      for (Map.Entry<String, JsonNode> alias : aliases.properties()) {
        overrides.addObject().put("alias", alias.getKey()).set("yaxis", alias.getValue());
      }
    }
    panel.remove("aliasYAxis");
  }

  /** Before 9 a singlestat's thresholds began with the lowest value, which later ones leave out. */
  private static void singlestatThresholds(ObjectNode panel) {
    String thresholds = panel.path("thresholds").asText("");
    String[] values = thresholds.split(",", -1);
    if (values.length >= 3) {
      panel.put("thresholds", thresholds.substring(thresholds.indexOf(',') + 1));
    }
  }

  /** The same for each style of a table before 10. */
  private static void tableThresholds(ObjectNode panel) {
    for (JsonNode style : panel.path("styles")) {
      JsonNode thresholds = style.path("thresholds");
      if (thresholds.isArray() && thresholds.size() >= 3) {
        ((ArrayNode) thresholds).remove(0);
      }
    }
  }

  /** Old panel links named a Grafana dashboard rather than a URL. */
  private static void links(ObjectNode panel, String path, ReportBuilder report) {
    JsonNode links = panel.get("links");
    if (links == null || !links.isArray()) {
      return;
    }
    for (int i = 0; i < links.size(); i++) {
      JsonNode link = links.get(i);
      if (link.isObject()
          && Json.isEmpty(link.get("url"))
          && (!Json.isEmpty(link.get("dashboard")) || !Json.isEmpty(link.get("dashUri")))) {
        report.unsupported(
            Json.path(Json.path(path, "links"), i),
            "a link to a Grafana dashboard by name (\""
                + link.path("dashboard").asText(link.path("dashUri").asText())
                + "\") has no URL here");
      }
    }
  }

  private static void moveIfSet(ObjectNode grid, String from, String to) {
    JsonNode value = grid.remove(from);
    if (!Json.isEmpty(value) && isAbsent(grid.get(to))) {
      grid.set(to, value);
    }
  }

  private static boolean isAbsent(JsonNode node) {
    return node == null || node.isNull();
  }
}
