package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hand-made dashboards from before schemaVersion 16: each odd row shape, converted to sections and
 * grid positions as Grafana places them (38 px per grid unit, 90 px at least, span × 2 columns).
 */
class GrafanaRowLayoutMigrationTest {
  private static ImportResult load(String json) {
    return DashboardImporter.importDocument(json.getBytes(StandardCharsets.UTF_8));
  }

  private static String panel(int id, String more) {
    return "{\"id\": "
        + id
        + ", \"type\": \"graph\", \"title\": \"p"
        + id
        + "\", \"targets\": [{\"expr\": \"up\", \"refId\": \"A\"}]"
        + (more.isEmpty() ? "" : ", " + more)
        + "}";
  }

  private static String dashboard(String rows) {
    return "{\"schemaVersion\": 14, \"title\": \"old\", \"rows\": [" + rows + "]}";
  }

  @Test
  void aCollapsedRowHoldsItsPanelsAndTakesOnlyItsHeader() {
    Dashboard dashboard =
        load(dashboard(
                """
                {"title": "Open", "height": "250px", "panels": [%s, %s]},
                {"title": "Shut", "collapse": true, "height": "200px", "panels": [%s]},
                {"title": "After", "height": 250, "panels": [%s]}
                """
                    .formatted(
                        panel(1, "\"span\": 6"),
                        panel(2, "\"span\": 6"),
                        panel(3, "\"span\": 12"),
                        panel(4, "\"span\": 4"))))
            .dashboard();
    List<LayoutSection> layout = dashboard.layout();
    // A collapsed row makes every row a row panel, titled.
    assertThat(layout).extracting(LayoutSection::title).containsExactly("Open", "Shut", "After");
    assertThat(layout).extracting(LayoutSection::collapsed).containsExactly(false, true, false);
    assertThat(layout.get(0).items())
        .containsExactly(new GridItem("1", 0, 0, 12, 7), new GridItem("2", 12, 0, 12, 7));
    // 200 px is ceil(200 / 38) = 6 units.
    assertThat(layout.get(1).items()).containsExactly(new GridItem("3", 0, 0, 24, 6));
    assertThat(layout.get(2).items()).containsExactly(new GridItem("4", 0, 0, 8, 7));
  }

  @Test
  void aRepeatedRowKeepsItsVariableAndSavedCopiesAreLeftOut() {
    ImportResult result =
        load(
            """
            {"schemaVersion": 14, "title": "old",
             "templating": {"list": [{"name": "gpu", "type": "custom", "query": "0,1",
               "current": {"text": "All", "value": ["$__all"]}, "includeAll": true, "multi": true}]},
             "rows": [
              {"title": "GPU $gpu", "repeat": "gpu", "panels": [%s,
                {"id": 9, "type": "graph", "repeatPanelId": 1, "repeatIteration": 1500000000000,
                 "grid": {"threshold1": 5}, "targets": [{"expr": "up"}]}]},
              {"title": "GPU $gpu", "repeatIteration": 1500000000000, "repeatRowId": 1,
               "panels": [%s]}
             ]}
            """
                .formatted(panel(1, "\"span\": 12"), panel(2, "\"span\": 12")));
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.layout()).hasSize(1);
    assertThat(dashboard.layout().get(0).repeat()).isEqualTo("gpu");
    assertThat(dashboard.layout().get(0).title()).isEqualTo("GPU $gpu");
    assertThat(dashboard.panels()).containsOnlyKeys("1");
    assertThat(result.report().warnings())
        .contains(
            "$.rows[0].panels[1]: a copy of a repeated panel saved by Grafana; left out",
            "$.rows[1]: a copy of a repeated row saved by Grafana; left out");
    // Nothing of a left-out copy is reported as lost.
    assertThat(result.report().unsupported()).isEmpty();
    assertThat(result.report().count(ReportBuilder.PANELS).source()).isEqualTo(1);
    assertThat(dashboard.variables().get(0).current()).containsExactly(Variable.ALL);
  }

  @Test
  void aRowWithNoTitleIsARowOnlyWhenAnotherRowShowsItsTitle() {
    Dashboard flat =
        load(dashboard(
                "{\"panels\": [%s]}, {\"title\": \"hidden\", \"panels\": [%s]}"
                    .formatted(panel(1, "\"span\": 12"), panel(2, "\"span\": 12"))))
            .dashboard();
    assertThat(flat.layout()).hasSize(1);
    assertThat(flat.layout().get(0).title()).isNull();
    assertThat(flat.layout().get(0).items())
        .containsExactly(new GridItem("1", 0, 0, 24, 7), new GridItem("2", 0, 7, 24, 7));

    Dashboard rows =
        load(dashboard(
                "{\"panels\": [%s]}, {\"title\": \"shown\", \"showTitle\": true, \"panels\": [%s]}"
                    .formatted(panel(1, "\"span\": 12"), panel(2, "\"span\": 12"))))
            .dashboard();
    assertThat(rows.layout()).extracting(LayoutSection::title).containsExactly("", "shown");
    assertThat(rows.layout().get(1).items()).containsExactly(new GridItem("2", 0, 0, 24, 7));
  }

  @Test
  void spansThatOverflowTwelveWrapBelowTheBand() {
    ImportResult result =
        load(
            dashboard(
                "{\"height\": \"250px\", \"panels\": [%s, %s, %s, %s, %s]}"
                    .formatted(
                        panel(1, "\"span\": 8"),
                        panel(2, "\"span\": 6"),
                        panel(3, "\"span\": 4"),
                        panel(4, "\"span\": 12"),
                        panel(5, "\"span\": 20"))));
    assertThat(result.dashboard().layout().get(0).items())
        .containsExactly(
            new GridItem("1", 0, 0, 16, 7),
            // 8 columns are left at the right, too few for 12: a new band below.
            new GridItem("2", 0, 7, 12, 7),
            new GridItem("3", 12, 7, 8, 7),
            new GridItem("4", 0, 14, 24, 7),
            // Wider than 12 spans: Grafana fails on it; it is taken as the whole width.
            new GridItem("5", 0, 21, 24, 7));
    assertThat(result.report().warnings())
        .contains("$.rows[0].panels[4].span: 20 is outside 1..12; taken as 12");
  }

  @Test
  void heightsAreReadAsTextOrNumbersWithGrafanasMinimum() {
    Dashboard dashboard =
        load(dashboard(
                """
                {"height": "300px", "panels": [%s, %s, %s, %s]},
                {"height": 100, "panels": [%s]},
                {"height": "", "panels": [%s]}
                """
                    .formatted(
                        panel(1, "\"span\": 3"),
                        panel(2, "\"span\": 3, \"height\": \"400px\""),
                        panel(3, "\"span\": 3, \"height\": 50"),
                        panel(4, "\"span\": 3, \"height\": \"120\""),
                        panel(5, "\"span\": 3"),
                        panel(6, ""))))
            .dashboard();
    assertThat(dashboard.layout().get(0).items())
        .containsExactly(
            // 300 px: 8 units; a panel's own height wins over its row's: 400 px is 11 units,
            // 50 px is raised to 90 px (3 units), "120" is 4 units.
            new GridItem("1", 0, 0, 6, 8),
            new GridItem("2", 6, 0, 6, 11),
            new GridItem("3", 12, 0, 6, 3),
            new GridItem("4", 18, 0, 6, 4),
            // The next row starts one row height (8) lower: 100 px is 3 units.
            new GridItem("5", 0, 8, 6, 3),
            // An empty height is the default 250 px; no span is Grafana's default 4.
            new GridItem("6", 0, 11, 8, 7));
  }

  @Test
  void aPanelTallerThanItsRowIsPushedClearOfTheNextRow() {
    ImportResult result =
        load(
            dashboard(
                "{\"height\": 100, \"panels\": [%s]}, {\"height\": 100, \"panels\": [%s]}"
                    .formatted(
                        panel(1, "\"span\": 12, \"height\": 300"), panel(2, "\"span\": 12"))));
    // Grafana puts the second row 3 units down, under the tall panel; the grid then moves it.
    assertThat(result.dashboard().layout().get(0).items())
        .containsExactly(new GridItem("1", 0, 0, 24, 8), new GridItem("2", 0, 8, 24, 3));
  }

  @Test
  void aRowWithNoPanelsIsAnEmptySection() {
    ImportResult result =
        load(
            dashboard(
                """
                {"title": "Empty", "showTitle": true, "height": 300, "panels": []},
                {"title": "Full", "panels": [%s]}
                """
                    .formatted(panel(1, "\"span\": 12"))));
    List<LayoutSection> layout = result.dashboard().layout();
    assertThat(layout).extracting(LayoutSection::title).containsExactly("Empty", "Full");
    assertThat(layout.get(0).items()).isEmpty();
    assertThat(layout.get(1).items()).containsExactly(new GridItem("1", 0, 0, 24, 7));

    Dashboard none = load("{\"schemaVersion\": 10, \"rows\": []}").dashboard();
    assertThat(none.panels()).isEmpty();
  }

  @Test
  void oldGraphSinglestatVariableAndAnnotationFieldsAreCarriedOrNamed() {
    ImportResult result =
        load(
            """
            {"schemaVersion": 8, "title": "grafana 2", "sharedCrosshair": true,
             "annotations": {"list": [{"name": "deploys", "datasource": null, "enable": true,
               "expr": "changes(build_info[5m]) > 0", "iconColor": "red", "showLine": true,
               "lineColor": "rgba(255, 0, 0, 0.5)", "iconSize": 13}]},
             "templating": {"list": [
               {"name": "job", "type": "query", "query": "label_values(up, job)", "refresh": true,
                "hideLabel": true, "allFormat": "glob", "current": {"text": "api", "value": "api"}},
               {"name": "env", "type": "custom", "query": "a,b", "refresh": false,
                "hideVariable": true, "multiFormat": "regex values"}]},
             "rows": [{"title": "r", "height": "250px", "editable": true, "panels": [
               {"id": 1, "type": "graphite", "span": 6, "legend": false,
                "y_formats": ["bytes", "percent"], "leftYAxisLabel": "used",
                "grid": {"leftMin": 0, "leftMax": 100, "leftLogBase": 2, "rightMax": null,
                         "threshold1": 80, "threshold1Color": "red", "threshold2": null,
                         "thresholdLine": false},
                "aliasYAxis": {"errors": 2},
                "links": [{"type": "dashboard", "dashboard": "Other board", "title": "more"}],
                "targets": [{"expr": "node_memory_Active_bytes"}]},
               {"id": 2, "type": "singlestat", "span": 6, "thresholds": "0,50,80",
                "colors": ["green", "orange", "red"], "targets": [{"expr": "up"}]}]}]}
            """);
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.time().graphTooltip()).isEqualTo(1);

    Panel graph = dashboard.panels().get("1");
    assertThat(graph.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(graph.fieldConfig().at("/defaults/unit").asText()).isEqualTo("bytes");
    assertThat(graph.fieldConfig().at("/defaults/max").asDouble()).isEqualTo(100.0);
    assertThat(graph.fieldConfig().at("/defaults/custom/axisLabel").asText()).isEqualTo("used");
    assertThat(graph.fieldConfig().at("/defaults/custom/scaleDistribution/log").asInt())
        .isEqualTo(2);
    assertThat(graph.options().at("/legend/showLegend").asBoolean()).isFalse();
    // aliasYAxis puts "errors" on the right axis, with the right axis's unit.
    assertThat(graph.fieldConfig().at("/overrides/0/matcher/options").asText()).isEqualTo("errors");
    assertThat(graph.fieldConfig().at("/overrides/0/properties/1/value").asText())
        .isEqualTo("percent");
    assertThat(graph.queries().get(0).refId()).isEqualTo("A");

    Panel stat = dashboard.panels().get("2");
    // Before 9 the first of three thresholds was the lowest value, dropped by Grafana.
    assertThat(stat.fieldConfig().at("/defaults/thresholds/steps").toString())
        .isEqualTo(
            "[{\"color\":\"green\",\"value\":null},{\"color\":\"orange\",\"value\":50.0},"
                + "{\"color\":\"red\",\"value\":80.0}]");

    Variable job = dashboard.variables().get(0);
    assertThat(job.type()).isEqualTo(VariableType.QUERY);
    assertThat(job.refresh()).isEqualTo(1);
    assertThat(job.hide()).isEqualTo(1);
    assertThat(job.current()).containsExactly("api");
    Variable env = dashboard.variables().get(1);
    assertThat(env.refresh()).isZero();
    assertThat(env.hide()).isEqualTo(2);

    assertThat(dashboard.annotations().get(0).expr()).isEqualTo("changes(build_info[5m]) > 0");

    assertThat(result.report().unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .containsExactlyInAnyOrder(
            "$.annotations.list[0].showLine",
            "$.annotations.list[0].lineColor",
            "$.annotations.list[0].iconSize",
            "$.templating.list[0].allFormat",
            "$.rows[0].panels[0].grid.threshold1",
            "$.rows[0].panels[0].links[0]");
    assertThat(result.report().warnings())
        .contains(
            "$.schemaVersion: converted from schemaVersion 8 to 16 as Grafana does on load (rows"
                + " of 12-column spans became positions on the 24-column grid)");
  }

  @Test
  void anOldDashboardThatAlreadyHasPanelsGetsOnlyThePanelSteps() {
    ImportResult result =
        load(
            """
            {"schemaVersion": 12, "panels": [{"id": 1, "type": "graph",
              "gridPos": {"x": 0, "y": 0, "w": 12, "h": 6}, "y_formats": ["ms", "short"],
              "grid": {"threshold1": 300}, "targets": [{"expr": "up"}]}]}
            """);
    Panel graph = result.dashboard().panels().get("1");
    assertThat(graph.fieldConfig().at("/defaults/unit").asText()).isEqualTo("ms");
    assertThat(result.dashboard().layout().get(0).items())
        .containsExactly(new GridItem("1", 0, 0, 12, 6));
    assertThat(result.report().unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .containsExactly("$.panels[0].grid.threshold1");
    assertThat(result.report().warnings())
        .contains("$.schemaVersion: converted from schemaVersion 12 to 16 as Grafana does on load");
  }

  @Test
  void whatCannotBeUnderstoodIsRefusedByPath() {
    assertThatThrownBy(() -> load("{\"schemaVersion\": 14, \"title\": \"x\"}"))
        .isInstanceOf(DashboardFormatException.class)
        .hasMessage(
            "at $.rows: missing: a dashboard of schemaVersion 14 keeps its panels in rows, and"
                + " this one has neither rows nor panels");
    assertThatThrownBy(() -> load("{\"schemaVersion\": 14, \"rows\": [], \"panels\": []}"))
        .hasMessageContaining("both rows")
        .hasMessageStartingWith("at $:");
    assertThatThrownBy(() -> load(dashboard("{\"height\": \"tall\", \"panels\": []}")))
        .hasMessage(
            "at $.rows[0].height: expected a height in pixels such as 250 or \"250px\", got"
                + " \"tall\"");
    assertThatThrownBy(() -> load(dashboard("{\"height\": \"9999999999999999999999px\"}")))
        .hasMessage("at $.rows[0].height: a height of more than 100000 px is not a dashboard row");
    assertThatThrownBy(() -> load(dashboard("{\"panels\": [{\"height\": [250]}]}")))
        .hasMessage(
            "at $.rows[0].panels[0].height: expected a height in pixels such as 250 or \"250px\","
                + " got an array");
    assertThatThrownBy(() -> load(dashboard("{\"panels\": [{\"span\": \"wide\"}]}")))
        .hasMessage("at $.rows[0].panels[0].span: expected a number, got \"wide\"");
    assertThatThrownBy(() -> load(dashboard("3")))
        .hasMessage("at $.rows[0]: expected an object, got a number");
    assertThatThrownBy(() -> load("{\"schemaVersion\": 12, \"rows\": {}}"))
        .hasMessage("at $.rows: expected an array, got an object");
  }

  @Test
  void aDashboardOfGrafana1WithoutSchemaVersionIsReadFromItsRows() {
    ImportResult result =
        load(
            """
            {"title": "g1", "services": {"filter": {"time": {"from": "now-1h", "to": "now"},
               "list": [{"name": "host", "type": "filter", "query": "label_values(host)"}]}},
             "rows": [{"height": "150px", "panels": [%s]}]}
            """
                .formatted(panel(1, "\"span\": 12")));
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.time().from()).isEqualTo("now-1h");
    assertThat(dashboard.variables().get(0).type()).isEqualTo(VariableType.QUERY);
    assertThat(dashboard.layout().get(0).items()).containsExactly(new GridItem("1", 0, 0, 24, 4));
    assertThat(result.report().warnings().get(0)).contains("converted from schemaVersion 0");
  }
}
