package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The import report names as "kept but not applied" exactly the transformations the cockpit does
 * not apply (js/dashboard/transforms.js and calculate-field.js), and still keeps them all.
 */
class GrafanaTransformationsReportTest {
  private static final List<String> IDS =
      List.of(
          "reduce",
          "joinByField",
          "seriesToColumns",
          "calculateField",
          "flightdeck.difference",
          "flightdeck.normalize",
          "flightdeck.movingAverage",
          "flightdeck.anomalies",
          "organize",
          "merge",
          "labelsToFields",
          "filterFieldsByName",
          "sortBy");

  private static ImportResult imported(String transformations) throws Exception {
    String document =
        """
        {"uid": "t", "title": "Transformations", "schemaVersion": 39,
         "panels": [{"id": 1, "type": "timeseries", "title": "All",
           "gridPos": {"x": 0, "y": 0, "w": 24, "h": 8},
           "targets": [{"refId": "A", "expr": "up"}],
           "transformations": %s}]}
        """
            .formatted(transformations);
    return DashboardImporter.importDocument(document.getBytes(StandardCharsets.UTF_8));
  }

  private static List<String> notApplied(ImportResult result) {
    return result.report().unsupported().stream()
        .filter(u -> u.path().contains(".transformations["))
        .map(u -> u.path() + " " + u.reason())
        .toList();
  }

  @Test
  void onlyTheTransformationsTheCockpitDoesNotApplyAreNamed() throws Exception {
    StringBuilder list = new StringBuilder("[");
    for (int i = 0; i < IDS.size(); i++) {
      list.append(i == 0 ? "" : ",").append("{\"id\": \"").append(IDS.get(i)).append("\"}");
    }
    ImportResult result = imported(list.append("]").toString());
    assertThat(notApplied(result))
        .containsExactly(
            "$.panels[0].transformations[8] transformation \"organize\" is kept but not applied",
            "$.panels[0].transformations[9] transformation \"merge\" is kept but not applied",
            "$.panels[0].transformations[10] transformation \"labelsToFields\" is kept but not"
                + " applied",
            "$.panels[0].transformations[11] transformation \"filterFieldsByName\" is kept but"
                + " not applied",
            "$.panels[0].transformations[12] transformation \"sortBy\" is kept but not applied");
    // Every one is kept, in order, so that an export gives Grafana its transformations back.
    Panel panel = result.dashboard().panels().get("1");
    assertThat(panel.transformations()).extracting(t -> t.path("id").asText()).isEqualTo(IDS);
  }

  @Test
  void calculateFieldIsNamedOnlyForAModeTheCockpitDoesNotCompute() throws Exception {
    ImportResult result =
        imported(
            """
            [{"id": "calculateField", "options": {"mode": "binary"}},
             {"id": "calculateField", "options": {"mode": "windowFunctions"}},
             {"id": "calculateField", "options": {}},
             {"id": "calculateField", "options": {"mode": "unknownMode"}},
             {"id": "organize", "disabled": true}]
            """);
    assertThat(notApplied(result))
        .containsExactly(
            "$.panels[0].transformations[3] calculateField mode \"unknownMode\" is kept but not"
                + " applied");
  }
}
