package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Perses dashboards, YAML or JSON, read into the model and written back unchanged. */
class PersesRoundTripTest {
  static final String YAML =
      """
      kind: Dashboard
      metadata:
        name: training-overview
        project: ml
      spec:
        display:
          name: Training overview
          description: Loss and GPUs
        duration: 3h
        refreshInterval: 30s
        datasources:
          prom:
            default: true
            plugin: {kind: PrometheusDatasource, spec: {}}
          logs:
            default: false
            plugin: {kind: LokiDatasource, spec: {}}
        variables:
          - kind: ListVariable
            spec:
              name: run
              display: {name: Run}
              allowAllValue: false
              allowMultiple: true
              defaultValue: [lora-a, lora-b]
              sort: alphabetical-asc
              plugin:
                kind: PrometheusLabelValuesVariable
                spec: {labelName: run, matchers: ["train_loss"]}
          - kind: ListVariable
            spec:
              name: device
              allowAllValue: true
              allowMultiple: true
              customAllValue: ".*"
              capturingRegexp: "cuda:(\\\\d+)"
              plugin:
                kind: PrometheusLabelValuesVariable
                spec: {labelName: device, matchers: ['gpu_memory_used_mb{run=~"$run"}']}
          - kind: ListVariable
            spec:
              name: size
              plugin: {kind: StaticListVariable, spec: {values: [small, large]}}
          - kind: TextVariable
            spec: {name: team, value: research, constant: true}
          - kind: TextVariable
            spec: {name: note, value: hello}
        panels:
          loss:
            kind: Panel
            spec:
              display: {name: Loss}
              plugin:
                kind: TimeSeriesChart
                spec:
                  legend: {position: right, mode: table, values: [last-number, min]}
                  yAxis: {format: {unit: decimal, decimalPlaces: 3}, min: 0, label: loss}
                  visual: {lineWidth: 2, areaOpacity: 0.1, connectNulls: true, display: line, stack: all}
                  thresholds: {defaultColor: green, steps: [{value: 5, color: red}]}
              queries:
                - kind: TimeSeriesQuery
                  spec:
                    plugin:
                      kind: PrometheusTimeSeriesQuery
                      spec: {query: 'train_loss{run=~"$run"}', seriesNameFormat: '{{run}}', minStep: 15s}
          memory:
            kind: Panel
            spec:
              display: {name: Memory, description: Per device}
              plugin:
                kind: GaugeChart
                spec: {calculation: last-number, format: {unit: percent-decimal}, max: 1, thresholds: {steps: [{value: 0.9, color: red}]}}
              queries:
                - kind: TimeSeriesQuery
                  spec:
                    plugin:
                      kind: PrometheusTimeSeriesQuery
                      spec: {query: max(gpu_memory_used_mb / gpu_memory_total_mb), instant: true}
          readme:
            kind: Panel
            spec:
              display: {name: Readme}
              plugin: {kind: Markdown, spec: {text: "*read me*"}}
          pie:
            kind: Panel
            spec:
              display: {name: Share}
              plugin: {kind: PieChart, spec: {calculation: sum}}
              queries:
                - kind: TimeSeriesQuery
                  spec:
                    plugin:
                      kind: PrometheusTimeSeriesQuery
                      spec: {query: sum by (job) (up)}
        layouts:
          - kind: Grid
            spec:
              items:
                - {x: 0, y: 0, width: 24, height: 3, content: {$ref: '#/spec/panels/readme'}}
          - kind: Grid
            spec:
              display: {title: Training, collapse: {open: true}}
              items:
                - {x: 0, y: 0, width: 16, height: 8, content: {$ref: '#/spec/panels/loss'}}
                - {x: 16, y: 0, width: 8, height: 8, content: {$ref: '#/spec/panels/memory'}}
          - kind: Grid
            spec:
              display: {title: Other, collapse: {open: false}}
              items:
                - {x: 0, y: 0, width: 12, height: 6, content: {$ref: '#/spec/panels/pie'}}
      """;

  private static ImportResult yaml() {
    return DashboardImporter.importDocument(YAML.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void readsPanelsLayoutsAndVariables() {
    ImportResult result = yaml();
    Dashboard dashboard = result.dashboard();
    assertThat(result.report().format()).isEqualTo(SourceFormat.PERSES);
    assertThat(dashboard.uid()).isEqualTo("training-overview");
    assertThat(dashboard.title()).isEqualTo("Training overview");
    assertThat(dashboard.time().from()).isEqualTo("now-3h");
    assertThat(dashboard.time().refresh()).isEqualTo("30s");
    assertThat(dashboard.panels().keySet()).containsExactly("loss", "memory", "readme", "pie");
    assertThat(dashboard.layout())
        .extracting(LayoutSection::title)
        .containsExactly(null, "Training", "Other");
    assertThat(dashboard.layout().get(2).collapsed()).isTrue();

    Panel loss = dashboard.panels().get("loss");
    assertThat(loss.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(loss.fieldConfig().at("/defaults/unit").asText()).isEqualTo("short");
    assertThat(loss.fieldConfig().at("/defaults/decimals").asInt()).isEqualTo(3);
    assertThat(loss.fieldConfig().at("/defaults/custom/fillOpacity").asDouble()).isEqualTo(10.0);
    assertThat(loss.options().at("/legend/calcs").toString())
        .isEqualTo("[\"lastNotNull\",\"min\"]");
    assertThat(loss.queries().get(0).legendFormat()).isEqualTo("{{run}}");
    assertThat(loss.queries().get(0).minStep()).isEqualTo("15s");
    assertThat(dashboard.panels().get("memory").queries().get(0).instant()).isTrue();
    assertThat(dashboard.panels().get("memory").fieldConfig().at("/defaults/unit").asText())
        .isEqualTo("percentunit");
    assertThat(dashboard.panels().get("pie").isUnsupported()).isTrue();
    assertThat(dashboard.panels().get("readme").options().path("content").asText())
        .isEqualTo("*read me*");

    assertThat(dashboard.variables())
        .extracting(Variable::name, Variable::type, Variable::query)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(
                "run", VariableType.QUERY, "label_values(train_loss, run)"),
            org.assertj.core.groups.Tuple.tuple(
                "device",
                VariableType.QUERY,
                "label_values(gpu_memory_used_mb{run=~\"$run\"}, device)"),
            org.assertj.core.groups.Tuple.tuple("size", VariableType.CUSTOM, "small,large"),
            org.assertj.core.groups.Tuple.tuple("team", VariableType.CONSTANT, "research"),
            org.assertj.core.groups.Tuple.tuple("note", VariableType.TEXTBOX, "hello"));
    assertThat(dashboard.variables().get(0).current()).containsExactly("lora-a", "lora-b");
    assertThat(dashboard.variables().get(1).regex()).isEqualTo("cuda:(\\d+)");
    assertThat(result.report().unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .containsExactly("$.spec.datasources.logs", "$.spec.panels.pie.spec.plugin");
  }

  @Test
  void importExportImportIsTheSameModel() {
    Dashboard first = yaml().dashboard();
    byte[] exported = StableJson.write(PersesExporter.export(first));
    ImportResult again = DashboardImporter.importDocument(exported);
    assertThat(again.dashboard()).isEqualTo(first);
    assertThat(again.report().format()).isEqualTo(SourceFormat.PERSES);
    assertThat(new String(exported, StandardCharsets.UTF_8)).contains("\"kind\": \"PieChart\"");
  }

  @Test
  void aPersesDashboardExportsToGrafanaAndBack() {
    Dashboard first = yaml().dashboard();
    Dashboard viaGrafana =
        DashboardImporter.importDocument(StableJson.write(GrafanaClassicExporter.export(first)))
            .dashboard();
    // Grafana numbers its panels, so compare everything but the ids.
    assertThat(viaGrafana.variables()).isEqualTo(first.variables());
    assertThat(viaGrafana.panels().values())
        .extracting(Panel::title)
        .containsExactlyInAnyOrderElementsOf(
            first.panels().values().stream().map(Panel::title).toList());
    assertThat(viaGrafana.layout())
        .extracting(LayoutSection::title)
        .containsExactly(null, "Training", "Other");
    assertThat(viaGrafana.layout().get(1).items())
        .extracting(GridItem::x, GridItem::y, GridItem::w, GridItem::h)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple(0, 0, 16, 8),
            org.assertj.core.groups.Tuple.tuple(16, 0, 8, 8));
  }

  @Test
  void aBareSpecInJsonIsAccepted() {
    Dashboard first = yaml().dashboard();
    String spec = PersesExporter.export(first).get("spec").toString();
    Dashboard bare =
        DashboardImporter.importDocument(spec.getBytes(StandardCharsets.UTF_8)).dashboard();
    assertThat(bare).isEqualTo(first.withUid(""));
  }
}
