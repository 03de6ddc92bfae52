package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one Grafana panel (not a row) into the model: migrated to its modern shape first, then its
 * common fields; a type we do not draw, or a data source other than Prometheus, becomes a
 * placeholder that keeps the original for export.
 */
final class GrafanaPanelReader {
  /** Fields read into the model, or that mean nothing outside Grafana's own runtime. */
  private static final Set<String> KNOWN =
      Set.of(
          "id",
          "type",
          "title",
          "description",
          "transparent",
          "links",
          "datasource",
          "interval",
          "maxDataPoints",
          "timeFrom",
          "timeShift",
          "repeat",
          "repeatDirection",
          "maxPerRow",
          "targets",
          "options",
          "fieldConfig",
          "transformations",
          "gridPos",
          "pluginVersion",
          "hideTimeOverride",
          "cacheTimeout",
          "scopedVars",
          "repeatIteration",
          "repeatPanelId",
          "content",
          "mode",
          "$$hashKey",
          "span",
          "height",
          "isNew",
          "error",
          "hiddenSeries");

  /**
   * The transformations the cockpit applies (cockpit js/dashboard/transforms.js): keep this list
   * and that file's table of transformations the same.
   */
  static final Set<String> APPLIED_TRANSFORMATIONS =
      Set.of(
          "reduce",
          "joinByField",
          "seriesToColumns",
          "calculateField",
          "flightdeck.difference",
          "flightdeck.normalize",
          "flightdeck.movingAverage",
          "flightdeck.anomalies");

  /** The calculateField modes the cockpit computes (js/dashboard/calculate-field.js). */
  static final Set<String> APPLIED_CALCULATE_MODES =
      Set.of("binary", "unary", "reduceRow", "index", "cumulativeFunctions", "windowFunctions");

  /** The units the cockpit formats (cockpit-research (d)); others are drawn as plain numbers. */
  static final Set<String> COMMON_UNITS =
      Set.of(
          "percent",
          "percentunit",
          "celsius",
          "watt",
          "hertz",
          "bytes",
          "decbytes",
          "decmbytes",
          "Bps",
          "bps",
          "s",
          "ms",
          "short",
          "none");

  private final GrafanaDatasources datasources;
  private final ReportBuilder report;

  GrafanaPanelReader(GrafanaDatasources datasources, ReportBuilder report) {
    this.datasources = datasources;
    this.report = report;
  }

  Panel read(ObjectNode source, String path) {
    report.countSource(ReportBuilder.PANELS, 1);
    String sourceType = source.path("type").asText("");
    String foreign = datasources.foreignType(source.get("datasource"));
    if (source.has("libraryPanel")) {
      return placeholder(source, path, "library panels are not supported");
    }
    if (foreign != null) {
      return placeholder(source, path, "data source type \"" + foreign + "\" is not supported");
    }
    ObjectNode panel = GrafanaPanelMigration.migrate(source, path, report);
    String kind = panel.path("type").asText("");
    if (!PanelKinds.DRAWN.contains(kind)) {
      return placeholder(source, path, "panel type \"" + sourceType + "\" is not supported");
    }
    for (Map.Entry<String, JsonNode> field : panel.properties()) {
      if (!KNOWN.contains(field.getKey()) && !Json.isEmpty(field.getValue())) {
        report.unsupported(Json.path(path, field.getKey()), "panel field not supported");
      }
    }
    transformations(panel, path);
    unit(panel, path);
    ObjectNode options = Json.object(panel, "options", path).deepCopy();
    if (kind.equals(PanelKinds.TEXT)) {
      textOptions(panel, options, path);
    }
    return new Panel(
        kind,
        Json.text(panel, "title", path),
        Json.text(panel, "description", path),
        GrafanaQueryReader.read(panel, path, report),
        options,
        fieldConfig(panel, path),
        Json.array(panel, "transformations", path),
        Json.array(panel, "links", path),
        Json.text(panel, "interval", path),
        Json.optionalInteger(panel, "maxDataPoints", path),
        Json.text(panel, "timeFrom", path),
        Json.text(panel, "timeShift", path),
        Json.bool(panel, "transparent", false),
        Json.text(panel, "repeat", path),
        Json.text(panel, "repeatDirection", path),
        Json.optionalInteger(panel, "maxPerRow", path));
  }

  /**
   * The transformations the cockpit applies are kept silently; any other (or a calculateField mode
   * it does not compute) is kept, so that an export gives it back, and named as not applied. A
   * disabled one is not applied in Grafana either.
   */
  private void transformations(ObjectNode panel, String path) {
    List<ObjectNode> list = Json.objects(panel, "transformations", path);
    for (int i = 0; i < list.size(); i++) {
      ObjectNode transformation = list.get(i);
      if (transformation.path("disabled").asBoolean(false)) {
        continue;
      }
      String id = transformation.path("id").asText("");
      String at = Json.path(Json.path(path, "transformations"), i);
      if (!APPLIED_TRANSFORMATIONS.contains(id)) {
        report.unsupported(at, "transformation \"" + id + "\" is kept but not applied");
      } else if (id.equals("calculateField")) {
        String mode = transformation.path("options").path("mode").asText("reduceRow");
        if (!APPLIED_CALCULATE_MODES.contains(mode)) {
          report.unsupported(at, "calculateField mode \"" + mode + "\" is kept but not applied");
        }
      }
    }
  }

  private void unit(ObjectNode panel, String path) {
    String unit = panel.path("fieldConfig").path("defaults").path("unit").asText("");
    if (!unit.isEmpty() && !COMMON_UNITS.contains(unit)) {
      report.warn(path + ".fieldConfig.defaults.unit: unit \"" + unit + "\" is drawn as short");
    }
  }

  /** Text panels before 7 kept {@code content} and {@code mode} at the top. */
  private static void textOptions(ObjectNode panel, ObjectNode options, String path) {
    if (panel.has("content") && !options.has("content")) {
      options.put("content", Json.text(panel, "content", path));
      options.put("mode", Json.text(panel, "mode", "markdown", path));
    }
  }

  private static ObjectNode fieldConfig(ObjectNode panel, String path) {
    ObjectNode config = Json.object(panel, "fieldConfig", path).deepCopy();
    Json.object(config, "defaults", path + ".fieldConfig");
    Json.array(config, "overrides", path + ".fieldConfig");
    config.withObjectProperty("defaults");
    config.withArrayProperty("overrides");
    return config;
  }

  /** A panel we do not draw: named, with its queries counted, and the original kept. */
  private Panel placeholder(ObjectNode source, String path, String reason) {
    report.unsupported(path, reason + "; imported as a placeholder");
    ObjectNode original = source.deepCopy();
    original.remove(List.of("id", "gridPos"));
    ObjectNode options = Json.NODES.objectNode();
    options.put("type", source.path("type").asText(""));
    options.put("message", reason);
    options.set("original", original);
    // Its queries count as kept only when they are PromQL; their fields are the placeholder's.
    report.countSource(ReportBuilder.QUERIES, Json.array(source, "targets", path).size());
    List<PanelQuery> queries =
        GrafanaQueryReader.read(source, path, new ReportBuilder()).stream()
            .filter(query -> !query.expr().isEmpty())
            .toList();
    return new Panel(
        PanelKinds.UNSUPPORTED,
        Json.text(source, "title", path),
        Json.text(source, "description", path),
        queries,
        options,
        null,
        null,
        null,
        "",
        null,
        "",
        "",
        false,
        "",
        "",
        null);
  }
}
