package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Grafana classic JSON: rows in the flat encoding, legacy panels, placeholders and the report. */
class GrafanaImportTest {
  static byte[] resource(String name) throws Exception {
    try (InputStream in = GrafanaImportTest.class.getResourceAsStream(name)) {
      return in.readAllBytes();
    }
  }

  private static ImportResult rows() throws Exception {
    return DashboardImporter.importDocument(resource("rows-and-legacy.json"));
  }

  private static Panel titled(Dashboard dashboard, String title) {
    return dashboard.panels().values().stream()
        .filter(p -> p.title().equals(title))
        .findFirst()
        .orElseThrow();
  }

  @Test
  void rowsFollowGrafanasFlatEncoding() throws Exception {
    Dashboard dashboard = rows().dashboard();
    List<LayoutSection> layout = dashboard.layout();
    assertThat(layout)
        .extracting(LayoutSection::title)
        .containsExactly(null, "Expanded", "Collapsed");
    assertThat(layout).extracting(LayoutSection::collapsed).containsExactly(false, false, true);
    // The expanded row owns the top-level panels that follow it, up to the next row.
    assertThat(layout.get(1).items()).extracting(GridItem::panel).containsExactly("3", "4", "5");
    assertThat(layout.get(2).items()).extracting(GridItem::panel).containsExactly("6", "7");
    // Positions are relative to the row's header.
    assertThat(layout.get(1).items().get(0).y()).isZero();
    assertThat(layout.get(1).items().get(2).y()).isEqualTo(8);
    assertThat(layout.get(2).items().get(0).y()).isZero();
  }

  @Test
  void legacyPanelsAreMigrated() throws Exception {
    Dashboard dashboard = rows().dashboard();
    Panel up = titled(dashboard, "Up");
    assertThat(up.kind()).isEqualTo(PanelKinds.STAT);
    assertThat(up.options().at("/reduceOptions/calcs/0").asText()).isEqualTo("lastNotNull");
    assertThat(up.options().path("graphMode").asText()).isEqualTo("area");
    assertThat(up.fieldConfig().at("/defaults/unit").asText()).isEqualTo("percent");
    assertThat(up.fieldConfig().at("/defaults/thresholds/steps").toString())
        .isEqualTo(
            "[{\"color\":\"green\",\"value\":null},{\"color\":\"orange\",\"value\":50.0},"
                + "{\"color\":\"red\",\"value\":80.0}]");

    Panel memory = titled(dashboard, "Memory");
    assertThat(memory.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(memory.fieldConfig().at("/defaults/unit").asText()).isEqualTo("bytes");
    assertThat(memory.fieldConfig().at("/defaults/min").asDouble()).isZero();
    assertThat(memory.fieldConfig().at("/defaults/custom/stacking/mode").asText())
        .isEqualTo("normal");
    var override = memory.fieldConfig().at("/overrides/0");
    assertThat(override.at("/matcher/id").asText()).isEqualTo("byRegexp");
    assertThat(override.at("/matcher/options").asText()).isEqualTo("used");
    assertThat(override.at("/properties").toString())
        .contains("custom.axisPlacement", "right", "\"unit\"", "percent", "#FF0000");
    assertThat(memory.queries().get(0).intervalFactor()).isEqualTo(2);

    Panel notes = titled(dashboard, "Notes");
    assertThat(notes.kind()).isEqualTo(PanelKinds.TEXT);
    assertThat(notes.options().path("content").asText()).isEqualTo("# Hello");

    Panel load = titled(dashboard, "Load");
    assertThat(load.queries().get(0).instant()).isTrue();
    assertThat(load.queries().get(0).range()).isFalse();
  }

  @Test
  void unknownPanelTypesAndForeignSourcesBecomePlaceholders() throws Exception {
    ImportResult result = rows();
    Panel pie = titled(result.dashboard(), "Pie");
    assertThat(pie.isUnsupported()).isTrue();
    assertThat(pie.options().path("type").asText()).isEqualTo("grafana-piechart-panel");
    assertThat(pie.options().path("message").asText())
        .contains("grafana-piechart-panel")
        .contains("not supported");
    assertThat(pie.queries()).hasSize(1);

    Panel logs = titled(result.dashboard(), "Logs volume");
    assertThat(logs.isUnsupported()).isTrue();
    assertThat(logs.options().path("message").asText()).contains("loki");

    // Exported, the placeholder gives Grafana its original panel back.
    String exported = GrafanaClassicExporter.export(result.dashboard()).toString();
    assertThat(exported).contains("\"type\":\"grafana-piechart-panel\"");
  }

  @Test
  void theReportCountsAndNamesWhatWasNotKept() throws Exception {
    ImportReport report = rows().report();
    assertThat(report.count("panels").source()).isEqualTo(7);
    assertThat(report.count("panels").kept()).isEqualTo(7);
    assertThat(report.count("variables").source()).isEqualTo(5);
    assertThat(report.count("variables").kept()).isEqualTo(4);
    assertThat(report.count("annotations").source()).isEqualTo(3);
    assertThat(report.count("annotations").kept()).isEqualTo(2);
    assertThat(report.count("links").kept()).isEqualTo(1);
    assertThat(report.unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .contains(
            "$.weekStart",
            "$.panels[0].prefix",
            "$.panels[3].targets[0].exemplar",
            "$.panels[4]",
            "$.panels[5]",
            "$.templating.list[4]",
            "$.annotations.list[2]",
            "$.panels[3].transformations[1]");
    assertThat(report.warnings())
        .contains(
            "$.panels[6].panels[1].fieldConfig.defaults.unit: unit \"ops\" is drawn as short");
  }

  @Test
  void exportWritesRowsInGrafanasFlatEncoding() throws Exception {
    var panels = GrafanaClassicExporter.export(rows().dashboard()).get("panels");
    List<String> order = new java.util.ArrayList<>();
    panels.forEach(p -> order.add(p.path("title").asText() + "@" + p.at("/gridPos/y").asInt()));
    // The expanded row's members follow it; the collapsed row holds its own.
    assertThat(order)
        .containsExactly(
            "Up@0", "Notes@0", "Expanded@4", "CPU@5", "Pie@5", "Logs volume@13", "Collapsed@19");
    var collapsed = panels.get(6);
    assertThat(collapsed.path("collapsed").asBoolean()).isTrue();
    assertThat(collapsed.path("panels").get(0).path("title").asText()).isEqualTo("Memory");
    assertThat(collapsed.path("panels").get(0).at("/gridPos/y").asInt()).isEqualTo(20);
    assertThat(collapsed.path("panels").get(0).path("type").asText()).isEqualTo("timeseries");
  }

  @Test
  void variablesKeepGrafanasFields() throws Exception {
    Dashboard dashboard = rows().dashboard();
    Variable job = dashboard.variables().get(0);
    assertThat(job.query()).isEqualTo("label_values(up, job)");
    assertThat(job.current()).containsExactly(Variable.ALL);
    assertThat(job.allValue()).isEqualTo(".*");
    assertThat(job.regex()).isEqualTo("/(.*)-prod/");
    assertThat(job.refresh()).isEqualTo(2);
    Variable interval = dashboard.variables().get(2);
    assertThat(interval.type()).isEqualTo(VariableType.INTERVAL);
    assertThat(interval.auto()).isTrue();
    assertThat(interval.autoCount()).isEqualTo(20);
    assertThat(interval.autoMin()).isEqualTo("30s");
    Annotation deploys = dashboard.annotations().get(1);
    assertThat(deploys.expr()).isEqualTo("changes(build_info[1m]) > 0");
    assertThat(deploys.tagKeys()).isEqualTo("job");
  }

  @Test
  void importExportImportKeepsTheModel() throws Exception {
    Dashboard first = rows().dashboard();
    ImportResult again =
        DashboardImporter.importDocument(StableJson.write(GrafanaClassicExporter.export(first)));
    assertThat(again.dashboard()).isEqualTo(first);
    for (ImportReport.Count count : again.report().counts()) {
      assertThat(count.lost()).as(count.what()).isFalse();
    }
  }

  @Test
  void theV1ResourceEnvelopeAndGrafanasApiAnswerAreUnwrapped() throws Exception {
    Dashboard classic = rows().dashboard();
    String spec = new String(resource("rows-and-legacy.json"), StandardCharsets.UTF_8);
    String resource =
        "{\"apiVersion\":\"dashboard.grafana.app/v1beta1\",\"kind\":\"Dashboard\","
            + "\"metadata\":{\"name\":\"rows-legacy\"},\"spec\":"
            + spec
            + "}";
    ImportResult fromResource =
        DashboardImporter.importDocument(resource.getBytes(StandardCharsets.UTF_8));
    assertThat(fromResource.dashboard()).isEqualTo(classic);
    assertThat(fromResource.report().format()).isEqualTo(SourceFormat.GRAFANA_V1_RESOURCE);
    assertThat(fromResource.report().unsupported().get(0).path()).startsWith("$.spec.");

    String api = "{\"meta\":{\"slug\":\"x\"},\"dashboard\":" + spec + "}";
    assertThat(DashboardImporter.importDocument(api.getBytes(StandardCharsets.UTF_8)).dashboard())
        .isEqualTo(classic);

    String v2 =
        "{\"apiVersion\":\"dashboard.grafana.app/v2beta1\",\"kind\":\"Dashboard\",\"spec\":{}}";
    assertThatThrownBy(() -> DashboardImporter.importDocument(v2.getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(DashboardFormatException.class)
        .hasMessageContaining("$.apiVersion")
        .hasMessageContaining("v2beta1");
  }
}
