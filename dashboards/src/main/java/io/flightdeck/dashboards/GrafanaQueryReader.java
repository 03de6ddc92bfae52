package io.flightdeck.dashboards;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Reads a Grafana panel's {@code targets} into queries; refIds are given where missing. */
final class GrafanaQueryReader {
  private static final Set<String> KNOWN =
      Set.of(
          "refId",
          "expr",
          "legendFormat",
          "interval",
          "intervalFactor",
          "instant",
          "range",
          "format",
          "hide",
          "datasource",
          "editorMode",
          "key",
          "step",
          "metric",
          "queryType",
          "calculatedInterval",
          "exemplar",
          "$$hashKey");

  private GrafanaQueryReader() {}

  static List<PanelQuery> read(ObjectNode panel, String path, ReportBuilder report) {
    List<ObjectNode> targets = Json.objects(panel, "targets", path);
    report.countSource(ReportBuilder.QUERIES, targets.size());
    List<PanelQuery> queries = new ArrayList<>();
    for (int i = 0; i < targets.size(); i++) {
      ObjectNode target = targets.get(i);
      String at = Json.path(Json.path(path, "targets"), i);
      for (Map.Entry<String, ?> field : target.properties()) {
        if (!KNOWN.contains(field.getKey()) && !Json.isEmpty(target.get(field.getKey()))) {
          report.unsupported(Json.path(at, field.getKey()), "query field not supported");
        }
      }
      if (Json.bool(target, "exemplar", false)) {
        report.unsupported(Json.path(at, "exemplar"), "exemplars are not shown");
      }
      boolean instant = Json.bool(target, "instant", false);
      boolean range = Json.bool(target, "range", !instant);
      String refId = Json.text(target, "refId", at);
      queries.add(
          new PanelQuery(
              refId.isEmpty() ? String.valueOf((char) ('A' + Math.min(i, 25))) : refId,
              Json.text(target, "expr", at),
              Json.text(target, "legendFormat", at),
              Json.text(target, "interval", at),
              Json.integer(target, "intervalFactor", 1, at),
              instant,
              range,
              Json.text(target, "format", at),
              Json.bool(target, "hide", false)));
    }
    return queries;
  }
}
