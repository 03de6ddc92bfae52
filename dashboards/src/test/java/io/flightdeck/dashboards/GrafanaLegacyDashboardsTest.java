package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Real dashboards saved by Grafana 4 (schemaVersion 12 and 14, rows of spans) converted as Grafana
 * 5 converts them on load. The fixtures and their licences are listed in {@code
 * legacy/PROVENANCE.md}. Expected positions are worked out by hand from Grafana's rule: width =
 * span × 2, height = ceil(max(px, 90) / 38), panels packed left to right within a band as tall as
 * the row and wrapped below it.
 */
class GrafanaLegacyDashboardsTest {
  private static ImportResult dockprom() throws Exception {
    return DashboardImporter.importDocument(
        GrafanaImportTest.resource("legacy/dockprom-docker-host-v12.json"));
  }

  private static ImportResult swarmprom() throws Exception {
    return DashboardImporter.importDocument(
        GrafanaImportTest.resource("legacy/swarmprom-nodes-v14.json"));
  }

  private static Map<String, GridItem> positions(Dashboard dashboard) {
    assertThat(dashboard.layout()).hasSize(1);
    assertThat(dashboard.layout().get(0).isRow()).isFalse();
    return dashboard.layout().get(0).items().stream()
        .collect(Collectors.toMap(GridItem::panel, item -> item));
  }

  @Test
  void dockpromsRowsBecomeGrafanasGridPositions() throws Exception {
    Dashboard dashboard = dockprom().dashboard();
    // No row is collapsed, repeated or shows its title: Grafana makes no row panels.
    Map<String, GridItem> at = positions(dashboard);
    // Row "Available resources", "100px": six singlestats of span 2, 3 units tall.
    assertThat(at.get("1")).isEqualTo(new GridItem("1", 0, 0, 4, 3));
    assertThat(at.get("4")).isEqualTo(new GridItem("4", 20, 0, 4, 3));
    // Row "Load", "150px" (4 units), starting below the first: three graphs of span 4.
    assertThat(at.get("9")).isEqualTo(new GridItem("9", 0, 3, 8, 4));
    assertThat(at.get("11")).isEqualTo(new GridItem("11", 16, 3, 8, 4));
    // Four rows of 250px (7 units) with one full-width graph each.
    assertThat(at.get("5")).isEqualTo(new GridItem("5", 0, 7, 24, 7));
    assertThat(at.get("8")).isEqualTo(new GridItem("8", 0, 28, 24, 7));
    // The last row, two graphs of span 6 side by side.
    assertThat(at.get("14")).isEqualTo(new GridItem("14", 0, 35, 12, 7));
    assertThat(at.get("15")).isEqualTo(new GridItem("15", 12, 35, 12, 7));
    assertThat(at).hasSize(15);
  }

  @Test
  void dockpromsPanelsQueriesAndCrosshairAreKept() throws Exception {
    ImportResult result = dockprom();
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.title()).isEqualTo("Docker Host");
    // sharedCrosshair: true (before schemaVersion 14) is graphTooltip 1.
    assertThat(dashboard.time().graphTooltip()).isEqualTo(1);
    Panel uptime = dashboard.panels().get("1");
    assertThat(uptime.kind()).isEqualTo(PanelKinds.STAT);
    assertThat(uptime.queries().get(0).expr()).isEqualTo("node_time - node_boot_time");
    assertThat(uptime.fieldConfig().at("/defaults/unit").asText()).isEqualTo("s");
    Panel memory = dashboard.panels().get("6");
    assertThat(memory.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(memory.title()).isEqualTo("Memory Usage");
    assertThat(memory.queries())
        .extracting(PanelQuery::expr)
        .containsExactly(
            "node_memory_MemTotal - (node_memory_MemFree + node_memory_Buffers +"
                + " node_memory_Cached)",
            "node_memory_MemFree",
            "node_memory_Buffers",
            "node_memory_Cached");
    assertThat(memory.fieldConfig().at("/defaults/unit").asText()).isEqualTo("bytes");
    for (ImportReport.Count count : result.report().counts()) {
      assertThat(count.lost()).as(count.what()).isFalse();
    }
    assertThat(result.report().count(ReportBuilder.PANELS).source()).isEqualTo(15);
    assertThat(result.report().count(ReportBuilder.QUERIES).kept()).isEqualTo(24);
    assertThat(result.report().warnings())
        .contains(
            "$.schemaVersion: converted from schemaVersion 12 to 16 as Grafana does on load (rows"
                + " of 12-column spans became positions on the 24-column grid)");
    // What is not kept is named where it sits in the old file.
    assertThat(result.report().unsupported())
        .contains(
            new ImportReport.UnsupportedField(
                "$.rows[0].panels[0].postfix", "singlestat postfix is not drawn"));
  }

  @Test
  void swarmpromsRowsWrapAndShareBandsAsGrafanaPlacesThem() throws Exception {
    Map<String, GridItem> at = positions(swarmprom().dashboard());
    // Heights given as numbers: 130 px is 4 units, 158 px is 5.
    assertThat(at.get("11")).isEqualTo(new GridItem("11", 18, 0, 6, 4));
    assertThat(at.get("3")).isEqualTo(new GridItem("3", 0, 11, 6, 5));
    // Row "IO": span 12 then two of span 6, which wrap below it in a second band.
    assertThat(at.get("16")).isEqualTo(new GridItem("16", 0, 23, 24, 7));
    assertThat(at.get("18")).isEqualTo(new GridItem("18", 0, 30, 12, 7));
    assertThat(at.get("19")).isEqualTo(new GridItem("19", 12, 30, 12, 7));
    // Row "CONTAINERS": span 9 and span 3 share the band, so the next row starts one band lower.
    assertThat(at.get("12")).isEqualTo(new GridItem("12", 0, 37, 18, 7));
    assertThat(at.get("7")).isEqualTo(new GridItem("7", 18, 37, 6, 7));
    assertThat(at.get("20")).isEqualTo(new GridItem("20", 0, 51, 24, 7));
  }

  @Test
  void swarmpromsPanelKindsQueriesAndVariablesAreKept() throws Exception {
    ImportResult result = swarmprom();
    Dashboard dashboard = result.dashboard();
    assertThat(dashboard.panels().get("11").kind()).isEqualTo(PanelKinds.GAUGE);
    assertThat(dashboard.panels().get("2").kind()).isEqualTo(PanelKinds.STAT);
    assertThat(dashboard.panels().get("20").kind()).isEqualTo(PanelKinds.TABLE);
    Panel disk = dashboard.panels().get("16");
    assertThat(disk.kind()).isEqualTo(PanelKinds.TIMESERIES);
    assertThat(disk.queries())
        .extracting(PanelQuery::legendFormat)
        .containsExactly("Read {{node_name}}", "Written {{node_name}}");
    assertThat(disk.queries().get(0).expr())
        .isEqualTo(
            "sum(irate(node_disk_bytes_read[$interval]) * on(instance) group_left(node_name)"
                + " node_meta{node_id=~\"$node_id\"}) by (node_name)");
    assertThat(disk.fieldConfig().at("/defaults/unit").asText()).isEqualTo("Bps");

    List<Variable> variables = dashboard.variables();
    assertThat(variables).extracting(Variable::name).containsExactly("node_id", "interval");
    Variable node = variables.get(0);
    assertThat(node.type()).isEqualTo(VariableType.QUERY);
    assertThat(node.query()).isEqualTo("node_meta");
    assertThat(node.regex()).isEqualTo("/node_id=\"([^\"]+)\"/");
    assertThat(node.includeAll()).isTrue();
    assertThat(node.allValue()).isEqualTo(".+");
    assertThat(node.current()).containsExactly(Variable.ALL);
    Variable interval = variables.get(1);
    assertThat(interval.type()).isEqualTo(VariableType.INTERVAL);
    assertThat(interval.auto()).isTrue();
    assertThat(interval.autoMin()).isEqualTo("30s");

    for (ImportReport.Count count : result.report().counts()) {
      assertThat(count.lost()).as(count.what()).isFalse();
    }
    assertThat(result.report().unsupported())
        .extracting(ImportReport.UnsupportedField::path)
        .contains("$.templating.list[0].useTags", "$.rows[7].panels[0].styles");
  }

  @Test
  void exportThenImportOfTheConvertedModelIsStable() throws Exception {
    for (ImportResult converted : List.of(dockprom(), swarmprom())) {
      Dashboard first = converted.dashboard();
      byte[] exported = StableJson.write(GrafanaClassicExporter.export(first));
      ImportResult again = DashboardImporter.importDocument(exported);
      assertThat(again.dashboard()).isEqualTo(first);
      assertThat(again.report().warnings()).noneMatch(w -> w.contains("converted from"));
      // And once more: the written file does not drift.
      assertThat(StableJson.write(GrafanaClassicExporter.export(again.dashboard())))
          .isEqualTo(exported);
    }
  }

  /** swarmprom's dashboard with one old field of the wrong type: refused, named by its old path. */
  @ParameterizedTest(name = "{0} = {1}")
  @CsvSource(
      delimiterString = " := ",
      value = {
        "/rows/0 := 5 := $.rows[0]",
        "/rows/0/panels := \"x\" := $.rows[0].panels",
        "/rows/0/panels/2/span := \"wide\" := $.rows[0].panels[2].span",
        "/rows/1/height := {} := $.rows[1].height",
        "/rows/1/panels/0/grid := [] := $.rows[1].panels[0].grid",
        "/rows/1/panels/0/aliasYAxis := [] := $.rows[1].panels[0].aliasYAxis",
        "/rows/4/panels/2/targets := \"x\" := $.rows[4].panels[2].targets",
        "/rows/2/panels/1/thresholds := \"low,high\" := $.rows[2].panels[1].thresholds",
        "/templating/list/0/refresh := [] := $.templating.list[0].refresh",
      })
  void anOldFieldOfTheWrongTypeIsNamedByItsPath(String pointer, String json, String path)
      throws Exception {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode root =
        (ObjectNode) mapper.readTree(GrafanaImportTest.resource("legacy/swarmprom-nodes-v14.json"));
    JsonNode value = mapper.readTree(json);
    int cut = pointer.lastIndexOf('/');
    JsonNode parent = root.at(pointer.substring(0, cut));
    String field = pointer.substring(cut + 1);
    if (parent.isArray()) {
      ((ArrayNode) parent).set(Integer.parseInt(field), value);
    } else {
      ((ObjectNode) parent).set(field, value);
    }
    Throwable thrown =
        catchThrowable(
            () ->
                DashboardImporter.importDocument(root.toString().getBytes(StandardCharsets.UTF_8)));
    assertThat(thrown).isInstanceOf(DashboardFormatException.class);
    assertThat(((DashboardFormatException) thrown).path()).isEqualTo(path);
  }
}
