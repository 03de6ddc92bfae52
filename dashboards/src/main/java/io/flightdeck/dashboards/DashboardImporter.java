package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads any dashboard document we accept, recognised by its shape: Grafana classic JSON (also
 * inside the {@code {dashboard, meta}} answer of Grafana's API), a Grafana {@code
 * dashboard.grafana.app} v0/v1 resource, a Perses {@code kind: Dashboard} (JSON or YAML) or its
 * bare spec, or our own model JSON. Everything is checked before anything is returned, so a caller
 * that saves only what this returns never saves half a dashboard.
 */
public final class DashboardImporter {
  /** Grafana's rule for a uid, which we keep for file names and URLs. */
  public static final Pattern UID = Pattern.compile("[A-Za-z0-9_-]{1,40}");

  private DashboardImporter() {}

  public static ImportResult importDocument(byte[] document) {
    return importTree(DocumentReader.read(document));
  }

  public static ImportResult importTree(JsonNode root) {
    ImportResult result = dispatch(root);
    validate(result.dashboard());
    return result;
  }

  private static ImportResult dispatch(JsonNode root) {
    if (ModelJson.isModel(root)) {
      Dashboard dashboard = ModelJson.read(root);
      return new ImportResult(
          dashboard, new ReportBuilder().build(SourceFormat.FLIGHTDECK, dashboard));
    }
    String apiVersion = root.path("apiVersion").asText("");
    if (apiVersion.startsWith("dashboard.grafana.app/")) {
      return grafanaResource(root, apiVersion);
    }
    if (root.has("kind")) {
      return PersesImporter.read(root);
    }
    if (root.path("dashboard").isObject() && root.path("meta").isObject()) {
      return GrafanaClassicImporter.read(
          root.get("dashboard"), "$.dashboard", SourceFormat.GRAFANA);
    }
    if (root.has("schemaVersion") || root.path("panels").isArray() || root.has("rows")) {
      return GrafanaClassicImporter.read(root, "$", SourceFormat.GRAFANA);
    }
    if (root.path("panels").isObject() || root.path("layouts").isArray()) {
      return PersesImporter.read(root);
    }
    throw new DashboardFormatException(
        "$",
        "not a dashboard: expected Grafana dashboard JSON (with schemaVersion and panels), a"
            + " Grafana dashboard.grafana.app resource, or a Perses Dashboard (kind: Dashboard)");
  }

  private static ImportResult grafanaResource(JsonNode root, String apiVersion) {
    String version = apiVersion.substring("dashboard.grafana.app/".length());
    if (!version.startsWith("v0") && !version.startsWith("v1")) {
      throw new DashboardFormatException(
          "$.apiVersion",
          apiVersion
              + " (elements and layout) is not supported yet; export the dashboard as classic"
              + " JSON or a v1 resource");
    }
    JsonNode spec = root.get("spec");
    if (spec == null || !spec.isObject()) {
      throw new DashboardFormatException("$.spec", "a dashboard resource needs a spec object");
    }
    ImportResult result =
        GrafanaClassicImporter.read(spec, "$.spec", SourceFormat.GRAFANA_V1_RESOURCE);
    String name = root.path("metadata").path("name").asText("");
    if (result.dashboard().uid().isEmpty() && !name.isEmpty()) {
      return new ImportResult(result.dashboard().withUid(name), result.report());
    }
    return result;
  }

  /** The checks every model passes, whatever it came from. */
  static void validate(Dashboard dashboard) {
    if (!dashboard.uid().isEmpty() && !UID.matcher(dashboard.uid()).matches()) {
      throw new DashboardFormatException(
          "$.uid",
          "\"" + dashboard.uid() + "\" is not a valid uid: 1 to 40 letters, digits, '-' or '_'");
    }
    for (int i = 0; i < dashboard.variables().size(); i++) {
      Variable variable = dashboard.variables().get(i);
      if (variable.name().isEmpty() || variable.type() == null) {
        throw new DashboardFormatException(
            "$.variables[" + i + "]", "a variable needs a name and a type");
      }
    }
    for (var entry : dashboard.panels().entrySet()) {
      if (entry.getValue() == null || entry.getValue().kind().isEmpty()) {
        throw new DashboardFormatException("$.panels." + entry.getKey(), "a panel needs a kind");
      }
    }
    Set<String> placed = new HashSet<>();
    List<LayoutSection> layout = dashboard.layout();
    for (int i = 0; i < layout.size(); i++) {
      for (GridItem item : layout.get(i).items()) {
        String at = "$.layout[" + i + "]";
        if (!dashboard.panels().containsKey(item.panel())) {
          throw new DashboardFormatException(at, "no panel \"" + item.panel() + "\"");
        }
        if (!placed.add(item.panel())) {
          throw new DashboardFormatException(at, "panel \"" + item.panel() + "\" is placed twice");
        }
        if (item.x() < 0
            || item.w() < 1
            || item.x() + item.w() > GridItem.COLUMNS
            || item.h() < 1
            || item.y() < 0) {
          throw new DashboardFormatException(
              at, "panel \"" + item.panel() + "\" is outside the 24-column grid");
        }
      }
    }
    for (String id : dashboard.panels().keySet()) {
      if (!placed.contains(id)) {
        throw new DashboardFormatException(
            "$.panels." + id, "panel \"" + id + "\" is in no layout section");
      }
    }
    VariableGraph.checkAcyclic(dashboard.variables(), "$.variables");
  }
}
