package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * Variables between Perses and the model: {@code ListVariable} with the Prometheus label values,
 * label names and PromQL plugins (query variables) or {@code StaticListVariable} (custom), and
 * {@code TextVariable} (textbox, or constant when {@code constant}).
 */
final class PersesVariables {
  private static final List<String> SORTS =
      List.of(
          "none",
          "alphabetical-asc",
          "alphabetical-desc",
          "numerical-asc",
          "numerical-desc",
          "alphabetical-ci-asc",
          "alphabetical-ci-desc");

  private PersesVariables() {}

  /** The variable, or null (reported) for a kind the model cannot hold. */
  static Variable read(ObjectNode node, String at, ReportBuilder report) {
    String kind = node.path("kind").asText("");
    JsonNode spec = Json.object(node, "spec", at);
    String specPath = Json.path(at, "spec");
    String name = Json.text(spec, "name", specPath);
    if (name.isEmpty()) {
      throw new DashboardFormatException(Json.path(specPath, "name"), "a variable needs a name");
    }
    JsonNode display = spec.path("display");
    String label = display.path("name").asText("");
    String description = display.path("description").asText("");
    int hide = display.path("hidden").asBoolean(false) ? 2 : 0;
    if (kind.equals("TextVariable")) {
      boolean constant = Json.bool(spec, "constant", false);
      return new Variable(
          name,
          constant ? VariableType.CONSTANT : VariableType.TEXTBOX,
          label,
          description,
          hide,
          Json.text(spec, "value", specPath),
          "",
          0,
          false,
          false,
          "",
          0,
          List.of(),
          false,
          30,
          "10s");
    }
    if (!kind.equals("ListVariable")) {
      report.unsupported(at, "variable kind \"" + kind + "\" is not supported");
      return null;
    }
    JsonNode plugin = spec.path("plugin");
    String pluginKind = plugin.path("kind").asText("");
    JsonNode pluginSpec = plugin.path("spec");
    String pluginPath = Json.path(specPath, "plugin.spec");
    VariableType type = VariableType.QUERY;
    String query;
    switch (pluginKind) {
      case "PrometheusLabelValuesVariable" -> {
        List<String> matchers = Json.strings(pluginSpec, "matchers", pluginPath);
        if (matchers.size() > 1) {
          report.unsupported(
              Json.path(pluginPath, "matchers") + "[1]", "only the first matcher is kept");
        }
        String labelName = Json.text(pluginSpec, "labelName", pluginPath);
        query =
            matchers.isEmpty()
                ? "label_values(" + labelName + ")"
                : "label_values(" + matchers.get(0) + ", " + labelName + ")";
      }
      case "PrometheusLabelNamesVariable" -> {
        List<String> matchers = Json.strings(pluginSpec, "matchers", pluginPath);
        query = "label_names(" + (matchers.isEmpty() ? "" : matchers.get(0)) + ")";
      }
      case "PrometheusPromQLVariable" ->
          query = "query_result(" + Json.text(pluginSpec, "expr", pluginPath) + ")";
      case "StaticListVariable" -> {
        type = VariableType.CUSTOM;
        StringBuilder values = new StringBuilder();
        for (JsonNode value : Json.array(pluginSpec, "values", pluginPath)) {
          String text = value.isObject() ? value.path("value").asText() : value.asText();
          values.append(values.isEmpty() ? "" : ",").append(text.replace(",", "\\,"));
        }
        query = values.toString();
      }
      default -> {
        report.unsupported(
            Json.path(specPath, "plugin"),
            "variable plugin \"" + pluginKind + "\" is not supported");
        return null;
      }
    }
    String sort = Json.text(spec, "sort", "none", specPath);
    int sortIndex = SORTS.indexOf(sort);
    if (sortIndex < 0) {
      report.unsupported(Json.path(specPath, "sort"), "sort \"" + sort + "\" is not known");
      sortIndex = 0;
    }
    boolean multi = Json.bool(spec, "allowMultiple", false);
    List<String> current = Json.strings(spec, "defaultValue", specPath);
    return new Variable(
        name,
        type,
        label,
        description,
        hide,
        query,
        Json.text(spec, "capturingRegexp", specPath),
        sortIndex,
        multi,
        Json.bool(spec, "allowAllValue", false),
        Json.text(spec, "customAllValue", specPath),
        type == VariableType.QUERY ? 1 : 0,
        multi || current.size() <= 1 ? current : current.subList(0, 1),
        false,
        30,
        "10s");
  }

  /** The Perses form, or null for a type Perses has no variable for (data source). */
  static ObjectNode write(Variable variable) {
    ObjectNode node = Json.NODES.objectNode();
    ObjectNode spec = Json.NODES.objectNode();
    spec.put("name", variable.name());
    if (!variable.label().isEmpty() || !variable.description().isEmpty() || variable.hide() == 2) {
      ObjectNode display = spec.putObject("display");
      if (!variable.label().isEmpty()) {
        display.put("name", variable.label());
      }
      if (!variable.description().isEmpty()) {
        display.put("description", variable.description());
      }
      display.put("hidden", variable.hide() == 2);
    }
    switch (variable.type()) {
      case DATASOURCE -> {
        return null;
      }
      case TEXTBOX, CONSTANT -> {
        node.put("kind", "TextVariable");
        spec.put("value", variable.query());
        if (variable.type() == VariableType.CONSTANT) {
          spec.put("constant", true);
        }
        node.set("spec", spec);
        return node;
      }
      default -> {}
    }
    node.put("kind", "ListVariable");
    if (!variable.current().isEmpty()) {
      if (variable.multi()) {
        ArrayNode values = spec.putArray("defaultValue");
        variable.current().forEach(values::add);
      } else {
        spec.put("defaultValue", variable.current().get(0));
      }
    }
    spec.put("allowAllValue", variable.includeAll());
    spec.put("allowMultiple", variable.multi());
    if (!variable.allValue().isEmpty()) {
      spec.put("customAllValue", variable.allValue());
    }
    if (!variable.regex().isEmpty()) {
      spec.put("capturingRegexp", variable.regex());
    }
    spec.put("sort", SORTS.get(Math.min(variable.sort(), SORTS.size() - 1)));
    spec.set("plugin", plugin(variable));
    node.set("spec", spec);
    return node;
  }

  private static ObjectNode plugin(Variable variable) {
    ObjectNode plugin = Json.NODES.objectNode();
    ObjectNode spec = Json.NODES.objectNode();
    if (variable.type() != VariableType.QUERY) {
      plugin.put("kind", "StaticListVariable");
      ArrayNode values = spec.putArray("values");
      VariableOptions.custom(variable.query()).forEach(values::add);
      plugin.set("spec", spec);
      return plugin;
    }
    switch (VariableQuery.parse(variable.query())) {
      case VariableQuery.LabelValues q -> {
        plugin.put("kind", "PrometheusLabelValuesVariable");
        spec.put("labelName", q.label());
        ArrayNode matchers = spec.putArray("matchers");
        if (!q.match().isEmpty()) {
          matchers.add(q.match());
        }
      }
      case VariableQuery.LabelNames q -> {
        plugin.put("kind", "PrometheusLabelNamesVariable");
        ArrayNode matchers = spec.putArray("matchers");
        if (!q.match().isEmpty()) {
          matchers.add(q.match());
        }
      }
      case VariableQuery.Metrics q -> {
        plugin.put("kind", "PrometheusLabelValuesVariable");
        spec.put("labelName", "__name__");
        spec.putArray("matchers").add("{__name__=~\"" + q.regex().replace("\"", "\\\"") + "\"}");
      }
      case VariableQuery.QueryResult q -> {
        plugin.put("kind", "PrometheusPromQLVariable");
        spec.put("expr", q.expr());
      }
      case VariableQuery.Series q -> {
        plugin.put("kind", "PrometheusPromQLVariable");
        spec.put("expr", q.match());
      }
    }
    plugin.set("spec", spec);
    return plugin;
  }
}
