package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads Grafana's {@code templating.list} into variables, refusing duplicates and cycles. */
final class GrafanaVariableReader {
  private static final Set<String> KNOWN =
      Set.of(
          "name",
          "type",
          "label",
          "description",
          "hide",
          "query",
          "regex",
          "sort",
          "multi",
          "includeAll",
          "allValue",
          "refresh",
          "current",
          "auto",
          "auto_count",
          "auto_min",
          "options",
          "definition",
          "index",
          "skipUrlSync",
          "tagValuesQuery",
          "tags",
          "tagsQuery",
          "useTags",
          "datasource",
          "queryValue",
          "error",
          "id",
          "rootStateKey",
          "global",
          "state",
          "$$hashKey",
          "allowCustomValue");

  private GrafanaVariableReader() {}

  static List<Variable> read(
      JsonNode dashboard, String path, GrafanaDatasources datasources, ReportBuilder report) {
    String listPath = Json.path(Json.path(path, "templating"), "list");
    List<ObjectNode> list =
        Json.objects(
            Json.object(dashboard, "templating", path), "list", Json.path(path, "templating"));
    report.countSource(ReportBuilder.VARIABLES, list.size());
    List<Variable> variables = new ArrayList<>();
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      ObjectNode node = list.get(i);
      String at = Json.path(listPath, i);
      String name = Json.text(node, "name", at);
      if (name.isEmpty()) {
        throw new DashboardFormatException(Json.path(at, "name"), "a variable needs a name");
      }
      if (!names.add(name)) {
        throw new DashboardFormatException(
            Json.path(at, "name"), "variable \"" + name + "\" is defined twice");
      }
      String typeName = Json.text(node, "type", at);
      VariableType type = VariableType.fromWire(typeName);
      if (type == null) {
        report.unsupported(at, "variable type \"" + typeName + "\" is not supported");
        continue;
      }
      String foreign = datasources.foreignType(node.get("datasource"));
      if (type == VariableType.QUERY && foreign != null) {
        report.unsupported(
            at, "variable \"" + name + "\" queries a \"" + foreign + "\" data source");
        continue;
      }
      if (type == VariableType.DATASOURCE && !"prometheus".equals(Json.text(node, "query", at))) {
        report.unsupported(at, "only Prometheus data source variables are supported");
        continue;
      }
      for (Map.Entry<String, JsonNode> field : node.properties()) {
        if (!KNOWN.contains(field.getKey()) && !Json.isEmpty(field.getValue())) {
          report.unsupported(Json.path(at, field.getKey()), "variable field not supported");
        }
      }
      if (Json.bool(node, "useTags", false)) {
        report.unsupported(Json.path(at, "useTags"), "tag-based variable values are not supported");
      }
      variables.add(
          new Variable(
              name,
              type,
              Json.text(node, "label", at),
              Json.text(node, "description", at),
              Json.integer(node, "hide", 0, at),
              query(node, at),
              Json.text(node, "regex", at),
              Json.integer(node, "sort", 0, at),
              Json.bool(node, "multi", false),
              Json.bool(node, "includeAll", false),
              Json.text(node, "allValue", at),
              Json.integer(node, "refresh", type == VariableType.QUERY ? 1 : 0, at),
              current(node, at, Json.bool(node, "multi", false)),
              Json.bool(node, "auto", false),
              Json.integer(node, "auto_count", 30, at),
              Json.text(node, "auto_min", "10s", at)));
    }
    VariableGraph.checkAcyclic(variables, listPath);
    return variables;
  }

  /** The string form; newer dashboards store {@code {query, qryType, refId}}. */
  private static String query(ObjectNode node, String path) {
    JsonNode query = node.get("query");
    if (query != null && query.isObject()) {
      return Json.text(query, "query", Json.path(path, "query"));
    }
    return Json.text(node, "query", path);
  }

  /** The saved selection; a single-value variable keeps one value. */
  private static List<String> current(ObjectNode node, String path, boolean multi) {
    JsonNode current = node.get("current");
    if (current == null || !current.isObject() || !current.has("value")) {
      return List.of();
    }
    List<String> values = Json.strings(current, "value", Json.path(path, "current"));
    return multi || values.size() <= 1 ? values : values.subList(0, 1);
  }
}
