package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** dcgm-exporter's official Grafana dashboard (schemaVersion 22) read, checked and written back. */
class DcgmDashboardTest {
  static byte[] fixture() throws Exception {
    return Files.readAllBytes(SharedFixtures.fixture("dcgm/dcgm-exporter-dashboard.json"));
  }

  @Test
  void importsEveryPanelQueryAndVariable() throws Exception {
    ImportResult result = DashboardImporter.importDocument(fixture());
    Dashboard dashboard = result.dashboard();

    assertThat(dashboard.title()).isEqualTo("NVIDIA DCGM Exporter Dashboard");
    assertThat(dashboard.panels()).hasSize(8);
    assertThat(dashboard.queryCount()).isEqualTo(8);
    assertThat(dashboard.variables())
        .extracting(Variable::name, Variable::type)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("datasource", VariableType.DATASOURCE),
            org.assertj.core.groups.Tuple.tuple("instance", VariableType.QUERY),
            org.assertj.core.groups.Tuple.tuple("gpu", VariableType.QUERY));
    Variable gpu = dashboard.variables().get(2);
    assertThat(gpu.query()).isEqualTo("label_values(DCGM_FI_DEV_GPU_TEMP, gpu)");
    assertThat(gpu.multi()).isTrue();
    assertThat(gpu.includeAll()).isTrue();
    assertThat(gpu.sort()).isEqualTo(1);

    ImportReport report = result.report();
    assertThat(report.format()).isEqualTo(SourceFormat.GRAFANA);
    for (ImportReport.Count count : report.counts()) {
      assertThat(count.lost()).as(count.what()).isFalse();
    }
    assertThat(report.count("panels").source()).isEqualTo(8);
    assertThat(report.count("queries").kept()).isEqualTo(8);
    assertThat(report.count("annotations").kept()).isEqualTo(1);
    assertThat(dashboard.annotations().get(0).builtIn()).isTrue();
    assertThat(dashboard.panels().values()).noneMatch(Panel::isUnsupported);
  }

  @Test
  void legacyPanelsBecomeModernOnes() throws Exception {
    Dashboard dashboard = DashboardImporter.importDocument(fixture()).dashboard();
    Map<String, Panel> byTitle =
        dashboard.panels().values().stream().collect(Collectors.toMap(Panel::title, p -> p));

    Panel temperature = byTitle.get("GPU Temperature");
    assertThat(temperature.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(temperature.fieldConfig().at("/defaults/unit").asText()).isEqualTo("celsius");
    assertThat(temperature.options().at("/legend/displayMode").asText()).isEqualTo("table");
    assertThat(temperature.options().at("/legend/placement").asText()).isEqualTo("right");
    assertThat(temperature.options().at("/legend/calcs").toString())
        .isEqualTo("[\"max\",\"mean\",\"lastNotNull\"]");
    assertThat(temperature.fieldConfig().at("/defaults/custom/lineWidth").asInt()).isEqualTo(2);
    assertThat(temperature.fieldConfig().at("/defaults/custom/fillOpacity").asInt()).isEqualTo(10);

    Panel utilisation = byTitle.get("GPU Utilization");
    assertThat(utilisation.fieldConfig().at("/defaults/min").asDouble()).isEqualTo(0);
    assertThat(utilisation.fieldConfig().at("/defaults/max").asDouble()).isEqualTo(100);

    Panel avgTemp = byTitle.get("GPU Avg. Temp");
    assertThat(avgTemp.kind()).isEqualTo(PanelKinds.GAUGE);
    assertThat(avgTemp.options().has("fieldOptions")).isFalse();
    assertThat(avgTemp.options().at("/reduceOptions/calcs/0").asText()).isEqualTo("mean");
    assertThat(avgTemp.fieldConfig().at("/defaults/unit").asText()).isEqualTo("celsius");
    assertThat(avgTemp.fieldConfig().at("/defaults/thresholds/steps/1/value").asInt())
        .isEqualTo(83);

    Panel power = byTitle.get("GPU Power Total");
    assertThat(power.options().at("/reduceOptions/calcs/0").asText()).isEqualTo("sum");
    assertThat(power.queries().get(0).instant()).isTrue();
    assertThat(power.fieldConfig().at("/defaults/max").asInt()).isEqualTo(2400);
  }

  @Test
  void overlappingPanelsArePushedDownAsGrafanaDoes() throws Exception {
    ImportResult result = DashboardImporter.importDocument(fixture());
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.layout()).hasSize(1);
    LayoutSection section = dashboard.layout().get(0);
    assertThat(section.isRow()).isFalse();
    Map<String, GridItem> byTitle =
        section.items().stream()
            .collect(Collectors.toMap(i -> dashboard.panels().get(i.panel()).title(), i -> i));
    assertThat(byTitle.get("GPU Utilization").y()).isEqualTo(24);
    assertThat(byTitle.get("Tensor Core Utilization").y()).isEqualTo(32);
    assertThat(byTitle.get("GPU Framebuffer Mem Used").y()).isEqualTo(40);
    assertThat(byTitle.get("GPU Avg. Temp"))
        .isEqualTo(new GridItem(byTitle.get("GPU Avg. Temp").panel(), 18, 0, 6, 8));
    for (GridItem a : section.items()) {
      for (GridItem b : section.items()) {
        if (a != b) {
          boolean apart =
              a.x() + a.w() <= b.x()
                  || b.x() + b.w() <= a.x()
                  || a.bottom() <= b.y()
                  || b.bottom() <= a.y();
          assertThat(apart).as(a + " and " + b).isTrue();
        }
      }
    }
    assertThat(result.report().warnings())
        .anySatisfy(w -> assertThat(w).contains("Tensor Core Utilization").contains("moved down"));
  }

  @Test
  void roundTripsThroughGrafanaJsonAndPerses() throws Exception {
    Dashboard first = DashboardImporter.importDocument(fixture()).dashboard();
    byte[] exported = StableJson.write(GrafanaClassicExporter.export(first));
    ImportResult again = DashboardImporter.importDocument(exported);
    assertThat(again.dashboard()).isEqualTo(first);
    assertThat(again.report().unsupported()).isEmpty();

    String text = new String(exported, java.nio.charset.StandardCharsets.UTF_8);
    assertThat(text).contains("\"${DS_PROMETHEUS}\"").doesNotContain("\"graph\"");
    assertThat(text).contains("\"schemaVersion\": " + GrafanaClassicExporter.SCHEMA_VERSION);

    ImportResult perses =
        DashboardImporter.importDocument(StableJson.write(PersesExporter.export(first)));
    assertThat(perses.dashboard().panels().keySet()).isEqualTo(first.panels().keySet());
    assertThat(perses.dashboard().layout()).isEqualTo(first.layout());
    assertThat(perses.dashboard().variables())
        .extracting(Variable::name)
        .isEqualTo(List.of("instance", "gpu"));
  }

  @Test
  void theUnsupportedFieldsAreNamedByPath() throws Exception {
    ImportReport report = DashboardImporter.importDocument(fixture()).report();
    // The fixture uses nothing the model lacks except legacy styling at its defaults.
    assertThat(report.unsupported()).allSatisfy(f -> assertThat(f.path()).startsWith("$."));
  }
}
