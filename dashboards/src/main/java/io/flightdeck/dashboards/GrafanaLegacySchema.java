package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Brings a Grafana dashboard saved before schemaVersion 16 (Grafana 1 to 4) to the shape of 16, as
 * Grafana's own steps do when it loads one: the dashboard's old fields ({@code services.filter},
 * {@code pulldowns}, {@code nav}, {@code sharedCrosshair}), the variables' old fields (boolean
 * {@code refresh}, {@code hideVariable}/{@code hideLabel}, no type), the graph panel's {@code grid}
 * and {@code y_formats} to {@code yaxes}, and the rows to grid positions ({@link
 * GrafanaRowLayoutMigration}). It works on a copy, remembers where each panel was in the file, and
 * names by path what it could not carry.
 */
final class GrafanaLegacySchema {
  static final int GRID_LAYOUT_SCHEMA_VERSION = 16;

  /** The dashboard in the shape of 16 or newer, and the file's path of each panel it moved. */
  record Upgraded(JsonNode dashboard, Map<JsonNode, String> sourcePaths) {}

  private GrafanaLegacySchema() {}

  static Upgraded upgrade(JsonNode root, String path, int schemaVersion, ReportBuilder report) {
    Map<JsonNode, String> sourcePaths = new IdentityHashMap<>();
    if (schemaVersion >= GRID_LAYOUT_SCHEMA_VERSION) {
      return new Upgraded(root, sourcePaths);
    }
    ObjectNode dashboard = ((ObjectNode) root).deepCopy();
    boolean hasRows = !isAbsent(dashboard.get("rows"));
    boolean hasPanels = !isAbsent(dashboard.get("panels"));
    if (!hasRows && !hasPanels) {
      throw new DashboardFormatException(
          Json.path(path, "rows"),
          "missing: a dashboard of schemaVersion "
              + schemaVersion
              + " keeps its panels in rows, and this one has neither rows nor panels");
    }
    if (hasRows && hasPanels) {
      throw new DashboardFormatException(
          path,
          "both rows (the layout before schemaVersion 16) and panels (16 and newer); a dashboard"
              + " has one of them");
    }
    dashboardFields(dashboard, path, schemaVersion, report);
    variables(dashboard, path, schemaVersion, report);
    annotations(dashboard, path, report);
    if (hasRows) {
      String rowsPath = Json.path(path, "rows");
      List<ObjectNode> rows = Json.objects(dashboard, "rows", path);
      for (int r = 0; r < rows.size(); r++) {
        String rowPath = Json.path(rowsPath, r);
        if (GrafanaRowLayoutMigration.isRowCopy(rows.get(r))) {
          continue;
        }
        List<ObjectNode> panels = Json.objects(rows.get(r), "panels", rowPath);
        for (int p = 0; p < panels.size(); p++) {
          if (!GrafanaRowLayoutMigration.isPanelCopy(panels.get(p))) {
            GrafanaLegacyPanel.upgrade(
                panels.get(p), Json.path(Json.path(rowPath, "panels"), p), schemaVersion, report);
          }
        }
      }
      ArrayNode flat = new GrafanaRowLayoutMigration(report, sourcePaths).convert(rows, rowsPath);
      dashboard.remove("rows");
      dashboard.set("panels", flat);
    } else {
      upgradePanelsInPlace(dashboard, path, schemaVersion, report);
    }
    report.warn(
        Json.path(path, "schemaVersion")
            + ": converted from schemaVersion "
            + schemaVersion
            + " to "
            + GRID_LAYOUT_SCHEMA_VERSION
            + " as Grafana does on load"
            + (hasRows ? " (rows of 12-column spans became positions on the 24-column grid)" : ""));
    return new Upgraded(dashboard, sourcePaths);
  }

  private static boolean isAbsent(JsonNode node) {
    return node == null || node.isNull();
  }

  /** A dashboard below 16 that already has {@code panels} (hand-made): only the panel steps. */
  private static void upgradePanelsInPlace(
      ObjectNode dashboard, String path, int schemaVersion, ReportBuilder report) {
    String panelsPath = Json.path(path, "panels");
    List<ObjectNode> panels = Json.objects(dashboard, "panels", path);
    for (int p = 0; p < panels.size(); p++) {
      String at = Json.path(panelsPath, p);
      GrafanaLegacyPanel.upgrade(panels.get(p), at, schemaVersion, report);
      List<ObjectNode> members = Json.objects(panels.get(p), "panels", at);
      for (int m = 0; m < members.size(); m++) {
        GrafanaLegacyPanel.upgrade(
            members.get(m), Json.path(Json.path(at, "panels"), m), schemaVersion, report);
      }
    }
  }

  private static void dashboardFields(
      ObjectNode dashboard, String path, int schemaVersion, ReportBuilder report) {
    // Grafana 1: the time range and the variables sat in services.filter.
    JsonNode filter = dashboard.path("services").path("filter");
    if (filter.isObject()) {
      if (filter.has("time") && isAbsent(dashboard.get("time"))) {
        dashboard.set("time", filter.get("time"));
      }
      if (filter.has("list") && dashboard.path("templating").path("list").isEmpty()) {
        dashboard.putObject("templating").set("list", filter.get("list"));
      }
      dashboard.remove("services");
    }
    // Before 6 the annotations were one of the "pulldowns".
    ArrayNode pulldowns = Json.array(dashboard, "pulldowns", path);
    for (JsonNode pulldown : pulldowns) {
      if ("annotations".equals(pulldown.path("type").asText())
          && dashboard.path("annotations").path("list").isEmpty()) {
        ArrayNode list = dashboard.putObject("annotations").putArray("list");
        pulldown.path("annotations").forEach(list::add);
      }
    }
    dashboard.remove("pulldowns");
    // Before 7 the time picker was the first "nav" entry.
    ArrayNode nav = Json.array(dashboard, "nav", path);
    if (!nav.isEmpty() && nav.get(0).isObject() && isAbsent(dashboard.get("timepicker"))) {
      dashboard.set("timepicker", nav.get(0));
    }
    dashboard.remove("nav");
    // Before 14 a shared crosshair was a boolean.
    if (schemaVersion < 14 && dashboard.has("sharedCrosshair")) {
      dashboard.put("graphTooltip", Json.bool(dashboard, "sharedCrosshair", false) ? 1 : 0);
    }
    dashboard.remove("sharedCrosshair");
    // Fields of Grafana 1 and 2 that no later Grafana reads.
    dashboard.remove(List.of("originalTitle", "loader", "panel_hints"));
  }

  private static void variables(
      ObjectNode dashboard, String path, int schemaVersion, ReportBuilder report) {
    String templatingPath = Json.path(path, "templating");
    String listPath = Json.path(templatingPath, "list");
    List<ObjectNode> list =
        Json.objects(Json.object(dashboard, "templating", path), "list", templatingPath);
    for (int i = 0; i < list.size(); i++) {
      ObjectNode variable = list.get(i);
      String at = Json.path(listPath, i);
      String type = variable.path("type").asText("");
      if (schemaVersion < 6 && (type.isEmpty() || type.equals("filter"))) {
        variable.put("type", "query");
      }
      JsonNode refresh = variable.get("refresh");
      if (refresh != null && refresh.isBoolean()) {
        // true meant "on dashboard load", Grafana's 1 since 12.
        variable.put("refresh", refresh.asBoolean() ? 1 : 0);
      }
      if (Json.bool(variable, "hideVariable", false)) {
        variable.put("hide", 2);
      } else if (Json.bool(variable, "hideLabel", false)) {
        variable.put("hide", 1);
      }
      variable.remove(List.of("hideVariable", "hideLabel"));
      for (String format : List.of("allFormat", "multiFormat")) {
        String value = variable.path(format).asText("");
        if (!value.isEmpty() && !value.equals("regex values")) {
          report.unsupported(
              Json.path(at, format),
              "the old \""
                  + value
                  + "\" value format is not kept: values are written as regex alternatives"
                  + " (a|b), as Grafana 5 and newer write them for Prometheus");
        }
        variable.remove(format);
      }
    }
  }

  /** Marker styling of the annotations before Grafana 5, which the model has no place for. */
  private static void annotations(ObjectNode dashboard, String path, ReportBuilder report) {
    String base = Json.path(path, "annotations");
    List<ObjectNode> list = Json.objects(Json.object(dashboard, "annotations", path), "list", base);
    for (int i = 0; i < list.size(); i++) {
      ObjectNode annotation = list.get(i);
      String at = Json.path(Json.path(base, "list"), i);
      for (String field : List.of("showLine", "lineColor", "iconSize")) {
        if (!Json.isEmpty(annotation.remove(field))) {
          report.unsupported(
              Json.path(at, field), "annotation marker styling before Grafana 5 is not kept");
        }
      }
    }
  }
}
