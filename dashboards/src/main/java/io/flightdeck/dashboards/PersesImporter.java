package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a Perses dashboard ({@code kind: Dashboard} or its bare {@code spec}) into the model:
 * panels by id, each {@code Grid} layout a section ({@code display.title} makes it a row, {@code
 * collapse.open} the inverse of collapsed), list and text variables, duration and refresh.
 */
final class PersesImporter {
  private static final Set<String> SPEC_FIELDS =
      Set.of(
          "display",
          "datasources",
          "variables",
          "panels",
          "layouts",
          "duration",
          "refreshInterval");

  private PersesImporter() {}

  static ImportResult read(JsonNode root) {
    boolean wrapped = root.has("kind");
    if (wrapped && !"Dashboard".equals(root.path("kind").asText())) {
      throw new DashboardFormatException(
          "$.kind", "expected Dashboard, got \"" + root.path("kind").asText() + "\"");
    }
    String path = wrapped ? "$.spec" : "$";
    JsonNode spec = wrapped ? Json.object(root, "spec", "$") : root;
    ReportBuilder report = new ReportBuilder();
    for (Map.Entry<String, JsonNode> field : spec.properties()) {
      if (!SPEC_FIELDS.contains(field.getKey()) && !Json.isEmpty(field.getValue())) {
        report.unsupported(Json.path(path, field.getKey()), "Perses field not supported");
      }
    }
    ObjectNode datasources = Json.object(spec, "datasources", path);
    for (Map.Entry<String, JsonNode> ds : datasources.properties()) {
      // A dashboard's data source is a DatasourceSpec {default, plugin}; a resource nests it in
      // spec.
      JsonNode plugin =
          ds.getValue().has("plugin")
              ? ds.getValue().path("plugin")
              : ds.getValue().path("spec").path("plugin");
      String kind = plugin.path("kind").asText("");
      if (!kind.isEmpty() && !kind.equals("PrometheusDatasource")) {
        report.unsupported(
            Json.path(Json.path(path, "datasources"), ds.getKey()),
            "data source kind \"" + kind + "\" is not supported");
      }
    }
    Map<String, Panel> panels = panels(spec, path, report);
    List<LayoutSection> layout = layouts(spec, path, panels, report);
    List<Variable> variables = variables(spec, path, report);
    ObjectNode display = Json.object(spec, "display", path);
    String duration = Json.text(spec, "duration", "1h", path);
    String refresh = Json.text(spec, "refreshInterval", path);
    Dashboard dashboard =
        new Dashboard(
            wrapped ? root.path("metadata").path("name").asText("") : "",
            Json.text(display, "name", Json.path(path, "display")),
            Json.text(display, "description", Json.path(path, "display")),
            List.of(),
            new TimeSettings(
                "now-" + duration, "now", refresh.equals("0s") ? "" : refresh, List.of(), "", 0),
            panels,
            layout,
            variables,
            List.of(),
            List.of());
    return new ImportResult(dashboard, report.build(SourceFormat.PERSES, dashboard));
  }

  private static Map<String, Panel> panels(JsonNode spec, String path, ReportBuilder report) {
    String base = Json.path(path, "panels");
    ObjectNode panels = Json.object(spec, "panels", path);
    Map<String, Panel> out = new LinkedHashMap<>();
    for (Map.Entry<String, JsonNode> entry : panels.properties()) {
      String at = Json.path(base, entry.getKey());
      if (!entry.getValue().isObject()) {
        throw new DashboardFormatException(
            at, "expected an object, got " + Json.typeName(entry.getValue()));
      }
      report.countSource(ReportBuilder.PANELS, 1);
      out.put(entry.getKey(), panel(entry.getValue(), at, report));
    }
    return out;
  }

  private static Panel panel(JsonNode node, String at, ReportBuilder report) {
    JsonNode panelSpec = Json.object(node, "spec", at);
    String specPath = Json.path(at, "spec");
    ObjectNode display = Json.object(panelSpec, "display", specPath);
    ObjectNode plugin = Json.object(panelSpec, "plugin", specPath);
    String pluginKind = Json.text(plugin, "kind", Json.path(specPath, "plugin"));
    List<PanelQuery> queries = queries(panelSpec, specPath, report);
    String kind = PersesPanels.kindOf(pluginKind);
    ObjectNode options = Json.NODES.objectNode();
    ObjectNode fieldConfig = Panel.emptyFieldConfig();
    if (kind == null) {
      report.unsupported(
          Json.path(specPath, "plugin"),
          "panel plugin \"" + pluginKind + "\" is not supported; imported as a placeholder");
      kind = PanelKinds.UNSUPPORTED;
      options.put("type", pluginKind);
      options.put("message", "panel plugin \"" + pluginKind + "\" is not supported");
      options.set("perses", plugin.deepCopy());
    } else {
      PersesPanels.read(kind, plugin.path("spec"), options, fieldConfig);
    }
    return new Panel(
        kind,
        Json.text(display, "name", specPath),
        Json.text(display, "description", specPath),
        queries,
        options,
        fieldConfig,
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

  private static List<PanelQuery> queries(
      JsonNode panelSpec, String specPath, ReportBuilder report) {
    List<ObjectNode> list = Json.objects(panelSpec, "queries", specPath);
    report.countSource(ReportBuilder.QUERIES, list.size());
    List<PanelQuery> out = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String at = Json.path(Json.path(specPath, "queries"), i);
      JsonNode plugin = list.get(i).path("spec").path("plugin");
      String kind = plugin.path("kind").asText("");
      if (!kind.equals("PrometheusTimeSeriesQuery")) {
        report.unsupported(at, "query kind \"" + kind + "\" is not supported");
        continue;
      }
      JsonNode query = plugin.path("spec");
      String queryPath = at + ".spec.plugin.spec";
      boolean instant = Json.bool(query, "instant", false);
      out.add(
          new PanelQuery(
              String.valueOf((char) ('A' + Math.min(out.size(), 25))),
              Json.text(query, "query", queryPath),
              Json.text(query, "seriesNameFormat", queryPath),
              Json.text(query, "minStep", queryPath),
              1,
              instant,
              !instant,
              "time_series",
              false));
    }
    return out;
  }

  private static List<LayoutSection> layouts(
      JsonNode spec, String path, Map<String, Panel> panels, ReportBuilder report) {
    String base = Json.path(path, "layouts");
    List<ObjectNode> layouts = Json.objects(spec, "layouts", path);
    List<LayoutSection> sections = new ArrayList<>();
    Set<String> placed = new LinkedHashSet<>();
    for (int i = 0; i < layouts.size(); i++) {
      String at = Json.path(base, i);
      ObjectNode layout = layouts.get(i);
      if (!"Grid".equals(layout.path("kind").asText())) {
        throw new DashboardFormatException(
            Json.path(at, "kind"), "expected Grid, got \"" + layout.path("kind").asText() + "\"");
      }
      JsonNode gridSpec = Json.object(layout, "spec", at);
      String specPath = Json.path(at, "spec");
      JsonNode display = gridSpec.path("display");
      String title = display.isObject() ? display.path("title").asText("") : null;
      boolean collapsed =
          display.isObject() && !display.path("collapse").path("open").asBoolean(true);
      List<GridItem> items = new ArrayList<>();
      List<ObjectNode> list = Json.objects(gridSpec, "items", specPath);
      for (int j = 0; j < list.size(); j++) {
        ObjectNode item = list.get(j);
        String itemPath = Json.path(Json.path(specPath, "items"), j);
        String ref = item.path("content").path("$ref").asText("");
        String prefix = "#/spec/panels/";
        if (!ref.startsWith(prefix) || !panels.containsKey(ref.substring(prefix.length()))) {
          throw new DashboardFormatException(
              Json.path(itemPath, "content.$ref"), "no panel \"" + ref + "\" in spec.panels");
        }
        String id = ref.substring(prefix.length());
        if (!placed.add(id)) {
          throw new DashboardFormatException(
              Json.path(itemPath, "content.$ref"), "panel \"" + id + "\" is placed twice");
        }
        int x = Json.integer(item, "x", 0, itemPath);
        int w = Json.integer(item, "width", 12, itemPath);
        items.add(
            new GridItem(
                id,
                Math.min(Math.max(0, x), GridItem.COLUMNS - 1),
                Math.max(0, Json.integer(item, "y", 0, itemPath)),
                Math.max(1, Math.min(w, GridItem.COLUMNS - Math.min(Math.max(0, x), 23))),
                Math.max(1, Json.integer(item, "height", 8, itemPath))));
      }
      sections.add(new LayoutSection(title, collapsed, "", GridCompaction.compact(items)));
    }
    List<GridItem> orphans = new ArrayList<>();
    for (String id : panels.keySet()) {
      if (!placed.contains(id)) {
        report.warn("panel \"" + id + "\" is in no layout; placed at the bottom");
        orphans.add(new GridItem(id, 0, Integer.MAX_VALUE / 4, 12, 8));
      }
    }
    if (!orphans.isEmpty()) {
      sections.add(new LayoutSection(null, false, "", GridCompaction.compact(orphans)));
    }
    return sections;
  }

  private static List<Variable> variables(JsonNode spec, String path, ReportBuilder report) {
    String base = Json.path(path, "variables");
    List<ObjectNode> list = Json.objects(spec, "variables", path);
    report.countSource(ReportBuilder.VARIABLES, list.size());
    List<Variable> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String at = Json.path(base, i);
      Variable variable = PersesVariables.read(list.get(i), at, report);
      if (variable == null) {
        continue;
      }
      if (!names.add(variable.name())) {
        throw new DashboardFormatException(
            Json.path(at, "spec.name"), "variable \"" + variable.name() + "\" is defined twice");
      }
      out.add(variable);
    }
    VariableGraph.checkAcyclic(out, base);
    return out;
  }
}
