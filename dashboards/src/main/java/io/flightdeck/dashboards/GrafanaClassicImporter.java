package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Grafana's classic dashboard JSON into the model: schemaVersion 16 and newer as it is, older
 * ones (rows of spans) after {@link GrafanaLegacySchema} brings them to 16.
 */
final class GrafanaClassicImporter {
  static final int NEWEST_KNOWN_SCHEMA_VERSION = 42;

  /** Fields read into the model, or that only matter to a Grafana instance. */
  private static final Set<String> KNOWN =
      Set.of(
          "uid",
          "title",
          "description",
          "tags",
          "time",
          "refresh",
          "timepicker",
          "timezone",
          "graphTooltip",
          "links",
          "panels",
          "templating",
          "annotations",
          "schemaVersion",
          "id",
          "version",
          "editable",
          "style",
          "iteration",
          "gnetId",
          "__inputs",
          "__requires",
          "variables",
          "hideControls",
          "sharedCrosshair",
          "preload");

  private GrafanaClassicImporter() {}

  static ImportResult read(JsonNode source, String path, SourceFormat format) {
    int schemaVersion = schemaVersion(source, path);
    ReportBuilder report = new ReportBuilder();
    GrafanaLegacySchema.Upgraded upgraded =
        GrafanaLegacySchema.upgrade(source, path, schemaVersion, report);
    JsonNode root = upgraded.dashboard();
    if (schemaVersion > NEWEST_KNOWN_SCHEMA_VERSION) {
      report.warn(
          "schemaVersion "
              + schemaVersion
              + " is newer than "
              + NEWEST_KNOWN_SCHEMA_VERSION
              + ", the newest known; imported as "
              + NEWEST_KNOWN_SCHEMA_VERSION);
    }
    for (Map.Entry<String, JsonNode> field : root.properties()) {
      if (!KNOWN.contains(field.getKey()) && !Json.isEmpty(field.getValue())) {
        report.unsupported(Json.path(path, field.getKey()), "dashboard field not supported");
      }
    }
    if (!Json.isEmpty(root.get("__elements"))) {
      report.unsupported(Json.path(path, "__elements"), "library panels are not supported");
    }
    GrafanaDatasources datasources = new GrafanaDatasources(root, path);
    GrafanaLayoutReader layout =
        new GrafanaLayoutReader(
            new GrafanaPanelReader(datasources, report), report, upgraded.sourcePaths());
    layout.read(root, path);
    List<Variable> variables = GrafanaVariableReader.read(root, path, datasources, report);
    Dashboard dashboard =
        new Dashboard(
            Json.text(root, "uid", path),
            Json.text(root, "title", path),
            Json.text(root, "description", path),
            Json.strings(root, "tags", path),
            time(root, path, report),
            layout.panels(),
            layout.sections(),
            variables,
            annotations(root, path, datasources, report),
            links(root, path, report));
    return new ImportResult(dashboard, report.build(format, dashboard));
  }

  private static int schemaVersion(JsonNode root, String path) {
    Integer version = Json.optionalInteger(root, "schemaVersion", path);
    if (version == null && root.path("rows").isArray()) {
      return 0; // Grafana 1 wrote none; Grafana reads that as 0 and applies every step
    }
    if (version == null) {
      throw new DashboardFormatException(
          Json.path(path, "schemaVersion"),
          "missing: a Grafana dashboard names its schemaVersion; re-save it in Grafana");
    }
    if (version < 0) {
      throw new DashboardFormatException(
          Json.path(path, "schemaVersion"), "expected 0 or more, got " + version);
    }
    return version;
  }

  private static TimeSettings time(JsonNode root, String path, ReportBuilder report) {
    ObjectNode time = Json.object(root, "time", path);
    String timePath = Json.path(path, "time");
    ObjectNode picker = Json.object(root, "timepicker", path);
    String pickerPath = Json.path(path, "timepicker");
    for (Map.Entry<String, JsonNode> field : picker.properties()) {
      if (!Set.of(
                  "refresh_intervals",
                  "time_options",
                  "collapse",
                  "enable",
                  "notice",
                  "status",
                  "type")
              .contains(field.getKey())
          && !Json.isEmpty(field.getValue())) {
        report.unsupported(
            Json.path(pickerPath, field.getKey()), "time picker field not supported");
      }
    }
    JsonNode refresh = root.get("refresh");
    String refreshText =
        refresh == null || refresh.isBoolean() ? "" : Json.text(root, "refresh", path);
    return new TimeSettings(
        Json.text(time, "from", timePath),
        Json.text(time, "to", timePath),
        refreshText,
        Json.strings(picker, "refresh_intervals", pickerPath),
        Json.text(root, "timezone", path),
        Json.integer(root, "graphTooltip", 0, path));
  }

  private static List<Annotation> annotations(
      JsonNode root, String path, GrafanaDatasources datasources, ReportBuilder report) {
    String base = Json.path(path, "annotations");
    List<ObjectNode> list = Json.objects(Json.object(root, "annotations", path), "list", base);
    report.countSource(ReportBuilder.ANNOTATIONS, list.size());
    List<Annotation> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ObjectNode node = list.get(i);
      String at = Json.path(Json.path(base, "list"), i);
      boolean builtIn = Json.integer(node, "builtIn", 0, at) == 1;
      JsonNode target = node.path("target");
      String expr = node.has("expr") ? Json.text(node, "expr", at) : target.path("expr").asText("");
      String foreign = datasources.foreignType(node.get("datasource"));
      if (!builtIn && (expr.isEmpty() || (foreign != null && !foreign.equals("grafana")))) {
        report.unsupported(
            at, "annotation \"" + Json.text(node, "name", at) + "\" is not a PromQL annotation");
        continue;
      }
      out.add(
          new Annotation(
              Json.text(node, "name", at),
              builtIn,
              Json.bool(node, "enable", true),
              Json.bool(node, "hide", false),
              Json.text(node, "iconColor", at),
              builtIn ? "" : expr,
              Json.text(node, "step", at),
              Json.text(node, "titleFormat", at),
              Json.text(node, "textFormat", at),
              Json.text(node, "tagKeys", at),
              Json.bool(node, "useValueForTime", false)));
    }
    return out;
  }

  private static List<DashboardLink> links(JsonNode root, String path, ReportBuilder report) {
    List<ObjectNode> list = Json.objects(root, "links", path);
    report.countSource(ReportBuilder.LINKS, list.size());
    List<DashboardLink> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      ObjectNode node = list.get(i);
      String at = Json.path(Json.path(path, "links"), i);
      out.add(
          new DashboardLink(
              Json.text(node, "title", at),
              Json.text(node, "type", at),
              Json.text(node, "url", at),
              Json.strings(node, "tags", at),
              Json.bool(node, "asDropdown", false),
              Json.bool(node, "targetBlank", false),
              Json.bool(node, "includeVars", false),
              Json.bool(node, "keepTime", false),
              Json.text(node, "tooltip", at),
              Json.text(node, "icon", at)));
    }
    return out;
  }
}
