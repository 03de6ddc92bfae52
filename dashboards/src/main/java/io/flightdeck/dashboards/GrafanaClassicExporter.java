package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Writes the model as Grafana classic JSON at one pinned schemaVersion, with modern panel types
 * only and every data source reference as {@code ${DS_PROMETHEUS}}, declared in {@code __inputs} so
 * that Grafana asks for a Prometheus source on import. Rows follow Grafana's flat encoding.
 */
public final class GrafanaClassicExporter {
  /** The schema Grafana 11.0 writes; the model holds nothing newer versions changed. */
  public static final int SCHEMA_VERSION = 39;

  static final String DS_INPUT = "DS_PROMETHEUS";

  private GrafanaClassicExporter() {}

  public static ObjectNode export(Dashboard dashboard) {
    ObjectNode root = Json.NODES.objectNode();
    ObjectNode input = root.putArray("__inputs").addObject();
    input.put("name", DS_INPUT);
    input.put("label", "Prometheus");
    input.put("description", "Flightdeck, or any Prometheus-compatible server");
    input.put("type", "datasource");
    input.put("pluginId", "prometheus");
    input.put("pluginName", "Prometheus");
    root.set("__requires", requires(dashboard));
    ArrayNode annotations = root.putObject("annotations").putArray("list");
    dashboard.annotations().forEach(a -> annotations.add(annotation(a)));
    root.put("description", dashboard.description());
    root.put("editable", true);
    root.put("graphTooltip", dashboard.time().graphTooltip());
    ArrayNode links = root.putArray("links");
    dashboard.links().forEach(link -> links.add(link(link)));
    root.set("panels", panels(dashboard));
    root.put("refresh", dashboard.time().refresh());
    root.put("schemaVersion", SCHEMA_VERSION);
    ArrayNode tags = root.putArray("tags");
    dashboard.tags().forEach(tags::add);
    ArrayNode variables = root.putObject("templating").putArray("list");
    dashboard.variables().forEach(v -> variables.add(variable(v)));
    root.putObject("time").put("from", dashboard.time().from()).put("to", dashboard.time().to());
    ArrayNode intervals = root.putObject("timepicker").putArray("refresh_intervals");
    dashboard.time().refreshIntervals().forEach(intervals::add);
    root.put("timezone", dashboard.time().timezone());
    root.put("title", dashboard.title());
    root.put("uid", dashboard.uid());
    root.put("version", 1);
    return root;
  }

  static ObjectNode datasource() {
    return Json.NODES.objectNode().put("type", "prometheus").put("uid", "${" + DS_INPUT + "}");
  }

  private static ArrayNode requires(Dashboard dashboard) {
    ArrayNode requires = Json.NODES.arrayNode();
    requires
        .addObject()
        .put("type", "grafana")
        .put("id", "grafana")
        .put("name", "Grafana")
        .put("version", "11.0.0");
    requires
        .addObject()
        .put("type", "datasource")
        .put("id", "prometheus")
        .put("name", "Prometheus")
        .put("version", "1.0.0");
    Set<String> types = new TreeSet<>();
    dashboard.panels().values().stream()
        .filter(p -> !p.isUnsupported())
        .forEach(p -> types.add(p.kind()));
    types.forEach(
        type ->
            requires
                .addObject()
                .put("type", "panel")
                .put("id", type)
                .put("name", type)
                .put("version", ""));
    return requires;
  }

  private static ArrayNode panels(Dashboard dashboard) {
    ArrayNode out = Json.NODES.arrayNode();
    Set<Integer> used = new HashSet<>();
    for (String key : dashboard.panels().keySet()) {
      if (key.matches("\\d{1,9}")) {
        used.add(Integer.parseInt(key));
      }
    }
    int[] next = {1};
    java.util.function.IntSupplier freshId =
        () -> {
          while (used.contains(next[0])) {
            next[0]++;
          }
          used.add(next[0]);
          return next[0];
        };
    Map<String, Integer> ids = new java.util.HashMap<>();
    for (String key : dashboard.panels().keySet()) {
      ids.put(key, key.matches("\\d{1,9}") ? Integer.parseInt(key) : freshId.getAsInt());
    }
    int cursor = 0;
    boolean first = true;
    for (LayoutSection section : dashboard.layout()) {
      ArrayNode target = out;
      if (section.isRow() || !first) {
        ObjectNode row = out.addObject();
        row.put("collapsed", section.collapsed());
        row.set("gridPos", gridPos(0, cursor, GridItem.COLUMNS, 1));
        row.put("id", freshId.getAsInt());
        ArrayNode members = row.putArray("panels");
        if (!section.repeat().isEmpty()) {
          row.put("repeat", section.repeat());
        }
        row.put("title", section.isRow() ? section.title() : "");
        row.put("type", "row");
        cursor += 1;
        if (section.collapsed()) {
          target = members;
        }
      }
      first = false;
      for (GridItem item : section.items()) {
        Panel panel = dashboard.panels().get(item.panel());
        ObjectNode node = panel(panel, ids.get(item.panel()));
        node.set("gridPos", gridPos(item.x(), cursor + item.y(), item.w(), item.h()));
        target.add(node);
      }
      // A collapsed row's members are nested in it: the next row starts right below its header.
      if (!section.collapsed()) {
        cursor += section.height();
      }
    }
    return out;
  }

  private static ObjectNode gridPos(int x, int y, int w, int h) {
    return Json.NODES.objectNode().put("h", h).put("w", w).put("x", x).put("y", y);
  }

  static ObjectNode panel(Panel panel, int id) {
    if (panel.isUnsupported()) {
      JsonNode original = panel.options().get("original");
      ObjectNode node =
          original != null && original.isObject()
              ? ((ObjectNode) original).deepCopy()
              : Json.NODES.objectNode().put("type", panel.options().path("type").asText());
      node.put("id", id);
      node.put("title", panel.title());
      return node;
    }
    ObjectNode node = Json.NODES.objectNode();
    node.set("datasource", datasource());
    if (!panel.description().isEmpty()) {
      node.put("description", panel.description());
    }
    node.set("fieldConfig", panel.fieldConfig());
    node.put("id", id);
    putIfSet(node, "interval", panel.interval());
    if (!panel.links().isEmpty()) {
      node.set("links", panel.links());
    }
    if (panel.maxDataPoints() != null) {
      node.put("maxDataPoints", panel.maxDataPoints());
    }
    if (panel.maxPerRow() != null) {
      node.put("maxPerRow", panel.maxPerRow());
    }
    node.set("options", panel.options());
    putIfSet(node, "repeat", panel.repeat());
    putIfSet(node, "repeatDirection", panel.repeatDirection());
    ArrayNode targets = node.putArray("targets");
    for (PanelQuery query : panel.queries()) {
      ObjectNode target = targets.addObject();
      target.set("datasource", datasource());
      target.put("expr", query.expr());
      target.put("format", query.format());
      if (query.hide()) {
        target.put("hide", true);
      }
      target.put("instant", query.instant());
      target.put("interval", query.minStep());
      if (query.intervalFactor() != 1) {
        target.put("intervalFactor", query.intervalFactor());
      }
      target.put("legendFormat", query.legendFormat());
      target.put("range", query.range());
      target.put("refId", query.refId());
    }
    putIfSet(node, "timeFrom", panel.timeFrom());
    putIfSet(node, "timeShift", panel.timeShift());
    node.put("title", panel.title());
    if (!panel.transformations().isEmpty()) {
      node.set("transformations", panel.transformations());
    }
    if (panel.transparent()) {
      node.put("transparent", true);
    }
    node.put("type", panel.kind());
    return node;
  }

  private static void putIfSet(ObjectNode node, String field, String value) {
    if (!value.isEmpty()) {
      node.put(field, value);
    }
  }

  private static ObjectNode annotation(Annotation annotation) {
    ObjectNode node = Json.NODES.objectNode();
    if (annotation.builtIn()) {
      node.put("builtIn", 1);
      node.set(
          "datasource", Json.NODES.objectNode().put("type", "grafana").put("uid", "-- Grafana --"));
      node.put("type", "dashboard");
    } else {
      node.set("datasource", datasource());
      node.put("expr", annotation.expr());
      node.put("step", annotation.step());
      node.put("tagKeys", annotation.tagKeys());
      node.put("textFormat", annotation.textFormat());
      node.put("titleFormat", annotation.titleFormat());
      node.put("useValueForTime", annotation.useValueForTime());
    }
    node.put("enable", annotation.enable());
    node.put("hide", annotation.hide());
    node.put("iconColor", annotation.iconColor());
    node.put("name", annotation.name());
    return node;
  }

  private static ObjectNode link(DashboardLink link) {
    ObjectNode node = Json.NODES.objectNode();
    node.put("asDropdown", link.asDropdown());
    node.put("icon", link.icon());
    node.put("includeVars", link.includeVars());
    node.put("keepTime", link.keepTime());
    ArrayNode tags = node.putArray("tags");
    link.tags().forEach(tags::add);
    node.put("targetBlank", link.targetBlank());
    node.put("title", link.title());
    node.put("tooltip", link.tooltip());
    node.put("type", link.type());
    node.put("url", link.url());
    return node;
  }

  private static ObjectNode variable(Variable variable) {
    ObjectNode node = Json.NODES.objectNode();
    if (!variable.allValue().isEmpty()) {
      node.put("allValue", variable.allValue());
    }
    ObjectNode current = node.putObject("current");
    boolean all = variable.current().equals(java.util.List.of(Variable.ALL));
    if (variable.multi() && !variable.current().isEmpty()) {
      ArrayNode values = current.putArray("value");
      variable.current().forEach(values::add);
      ArrayNode texts = current.putArray("text");
      variable.current().forEach(v -> texts.add(Variable.ALL.equals(v) ? "All" : v));
    } else if (!variable.current().isEmpty()) {
      current.put("value", variable.current().get(0));
      current.put("text", all ? "All" : variable.current().get(0));
    }
    if (variable.type() == VariableType.QUERY) {
      node.set("datasource", datasource());
      node.put("definition", variable.query());
      node.put("refresh", variable.refresh());
    }
    if (!variable.description().isEmpty()) {
      node.put("description", variable.description());
    }
    node.put("hide", variable.hide());
    node.put("includeAll", variable.includeAll());
    if (!variable.label().isEmpty()) {
      node.put("label", variable.label());
    }
    node.put("multi", variable.multi());
    node.put("name", variable.name());
    node.putArray("options");
    node.put("query", variable.query());
    node.put("regex", variable.regex());
    node.put("sort", variable.sort());
    if (variable.type() == VariableType.INTERVAL) {
      node.put("auto", variable.auto());
      node.put("auto_count", variable.autoCount());
      node.put("auto_min", variable.autoMin());
    }
    if (variable.type() != VariableType.QUERY && variable.refresh() != 0) {
      node.put("refresh", variable.refresh());
    }
    node.put("type", variable.type().wireName());
    return node;
  }
}
