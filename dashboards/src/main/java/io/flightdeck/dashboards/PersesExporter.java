package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;

/**
 * Writes the model as a Perses {@code kind: Dashboard}: panels by id, one {@code Grid} per section,
 * list and text variables, duration and refresh. Perses has no place for annotations, links, tags,
 * a data source variable, an absolute time range, or a query's format and legacy interval factor;
 * those are left out.
 */
public final class PersesExporter {
  static final String PROJECT = "flightdeck";

  private PersesExporter() {}

  public static ObjectNode export(Dashboard dashboard) {
    ObjectNode root = Json.NODES.objectNode();
    root.put("kind", "Dashboard");
    ObjectNode metadata = root.putObject("metadata");
    metadata.put("name", dashboard.uid());
    metadata.put("project", PROJECT);
    ObjectNode spec = root.putObject("spec");
    ObjectNode display = spec.putObject("display");
    display.put("name", dashboard.title());
    if (!dashboard.description().isEmpty()) {
      display.put("description", dashboard.description());
    }
    String from = dashboard.time().from();
    if (from.startsWith("now-") && dashboard.time().to().equals("now")) {
      spec.put("duration", from.substring("now-".length()));
    }
    if (!dashboard.time().refresh().isEmpty()) {
      spec.put("refreshInterval", dashboard.time().refresh());
    }
    ArrayNode variables = spec.putArray("variables");
    for (Variable variable : dashboard.variables()) {
      ObjectNode written = PersesVariables.write(variable);
      if (written != null) {
        variables.add(written);
      }
    }
    ObjectNode panels = spec.putObject("panels");
    for (Map.Entry<String, Panel> entry : dashboard.panels().entrySet()) {
      panels.set(entry.getKey(), panel(entry.getValue()));
    }
    ArrayNode layouts = spec.putArray("layouts");
    for (LayoutSection section : dashboard.layout()) {
      ObjectNode grid = layouts.addObject();
      grid.put("kind", "Grid");
      ObjectNode gridSpec = grid.putObject("spec");
      if (section.isRow()) {
        ObjectNode gridDisplay = gridSpec.putObject("display");
        gridDisplay.put("title", section.title());
        gridDisplay.putObject("collapse").put("open", !section.collapsed());
      }
      ArrayNode items = gridSpec.putArray("items");
      for (GridItem item : section.items()) {
        ObjectNode node = items.addObject();
        node.put("x", item.x());
        node.put("y", item.y());
        node.put("width", item.w());
        node.put("height", item.h());
        node.putObject("content").put("$ref", "#/spec/panels/" + item.panel());
      }
    }
    return root;
  }

  private static ObjectNode panel(Panel panel) {
    ObjectNode node = Json.NODES.objectNode();
    node.put("kind", "Panel");
    ObjectNode spec = node.putObject("spec");
    ObjectNode display = spec.putObject("display");
    display.put("name", panel.title());
    if (!panel.description().isEmpty()) {
      display.put("description", panel.description());
    }
    JsonNode kept = panel.options().get("perses");
    if (panel.isUnsupported() && kept != null && kept.isObject()) {
      spec.set("plugin", kept);
    } else if (panel.isUnsupported()) {
      ObjectNode plugin = spec.putObject("plugin");
      plugin.put("kind", "Markdown");
      plugin
          .putObject("spec")
          .put(
              "text",
              "Grafana panel type \""
                  + panel.options().path("type").asText()
                  + "\" is not supported");
    } else {
      ObjectNode plugin = spec.putObject("plugin");
      plugin.put("kind", PersesPanels.KIND_TO_PLUGIN.get(panel.kind()));
      plugin.set("spec", PersesPanels.pluginSpec(panel));
    }
    ArrayNode queries = spec.putArray("queries");
    for (PanelQuery query : panel.queries()) {
      ObjectNode queryNode = queries.addObject();
      queryNode.put("kind", "TimeSeriesQuery");
      ObjectNode plugin = queryNode.putObject("spec").putObject("plugin");
      plugin.put("kind", "PrometheusTimeSeriesQuery");
      ObjectNode querySpec = plugin.putObject("spec");
      querySpec.put("query", query.expr());
      if (!query.legendFormat().isEmpty()) {
        querySpec.put("seriesNameFormat", query.legendFormat());
      }
      if (!query.minStep().isEmpty()) {
        querySpec.put("minStep", query.minStep());
      }
      if (query.instant() && !query.range()) {
        querySpec.put("instant", true);
      }
    }
    return node;
  }
}
