package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** Heatmaps saved before Grafana 9 are imported with the new heatmap's options. */
class GrafanaHeatmapMigrationTest {
  private static ImportResult imported(String heatmapFields) throws Exception {
    String document =
        """
        {"uid": "h", "title": "Old heatmaps", "schemaVersion": 27,
         "panels": [{"id": 1, "type": "heatmap", "title": "Latency",
           "gridPos": {"x": 0, "y": 0, "w": 24, "h": 8},
           "targets": [{"refId": "A", "expr": "probe_seconds"}],
           %s}]}
        """
            .formatted(heatmapFields);
    return DashboardImporter.importDocument(document.getBytes(StandardCharsets.UTF_8));
  }

  private static JsonNode options(ImportResult result) {
    return result.dashboard().panels().get("1").options();
  }

  @Test
  void aTimeSeriesHeatmapComputesBucketsOfItsOldSizes() throws Exception {
    ImportResult result =
        imported(
            """
            "dataFormat": "timeseries", "xBucketSize": "1m", "xBucketNumber": null,
            "yBucketSize": 0.5, "yBucketNumber": 7, "reverseYBuckets": true,
            "yAxis": {"show": true, "format": "s", "decimals": 2, "logBase": 1, "min": "0", "max": null, "splitFactor": null},
            "xAxis": {"show": true}, "cards": {"cardPadding": null, "cardRound": 3},
            "color": {"mode": "spectrum", "colorScheme": "interpolateBlues", "cardColor": "#b4ff00", "min": 10, "max": 1},
            "legend": {"show": true}, "tooltip": {"show": true, "showHistogram": true},
            "hideZeroBuckets": true, "highlightCards": true, "yBucketBound": "upper", "heatmap": {}, "options": {}
            """);
    JsonNode options = options(result);
    assertThat(options.path("calculate").asBoolean()).isTrue();
    assertThat(options.path("calculation").toString())
        .isEqualTo(
            "{\"xBuckets\":{\"mode\":\"size\",\"value\":\"1m\"},"
                + "\"yBuckets\":{\"mode\":\"size\",\"value\":\"0.5\"}}");
    assertThat(options.path("yAxis").toString())
        .isEqualTo(
            "{\"axisPlacement\":\"left\",\"reverse\":true,\"min\":0,\"decimals\":2,\"unit\":\"s\"}");
    assertThat(options.at("/rowsFrame/layout").asText()).isEqualTo("ge");
    assertThat(options.at("/legend/show").asBoolean()).isTrue();
    assertThat(options.at("/tooltip/yHistogram").asBoolean()).isTrue();
    assertThat(options.path("cellGap").asInt()).isEqualTo(2);
    assertThat(options.path("cellRadius").asInt()).isEqualTo(3);
    assertThat(options.at("/filterValues/le").asDouble()).isEqualTo(1e-9);
    // Colour bounds given the wrong way round reverse the scheme, as in Grafana.
    assertThat(options.at("/color/scheme").asText()).isEqualTo("Blues");
    assertThat(options.at("/color/reverse").asBoolean()).isTrue();
    assertThat(options.at("/color/min").asDouble()).isEqualTo(1);
    assertThat(options.at("/color/max").asDouble()).isEqualTo(10);
    // The old fields are consumed: none is reported as a field the panel does not support.
    assertThat(result.report().unsupported()).isEmpty();
    JsonNode exported = GrafanaClassicExporter.export(result.dashboard()).path("panels").get(0);
    assertThat(exported.has("dataFormat")).isFalse();
    assertThat(exported.at("/options/calculate").asBoolean()).isTrue();
  }

  @Test
  void bucketCountsAreUsedWhenNoSizeIsSet() throws Exception {
    JsonNode options =
        options(
            imported(
                """
                "dataFormat": "timeseries", "xBucketSize": "", "xBucketNumber": 30,
                "yBucketSize": null, "yBucketNumber": "12", "yAxis": {"logBase": 1}
                """));
    assertThat(options.path("calculation").toString())
        .isEqualTo(
            "{\"xBuckets\":{\"mode\":\"count\",\"value\":\"30\"},"
                + "\"yBuckets\":{\"mode\":\"count\",\"value\":\"12\"}}");
  }

  @Test
  void aLogAxisMakesRowsPowersOfItsBaseSplitByItsFactor() throws Exception {
    JsonNode options =
        options(
            imported(
                """
                "dataFormat": "timeseries", "yBucketSize": 5,
                "yAxis": {"logBase": 2, "splitFactor": 4, "show": false}
                """));
    assertThat(options.at("/calculation/yBuckets").toString())
        .isEqualTo("{\"mode\":\"count\",\"value\":\"4\",\"scale\":{\"type\":\"log\",\"log\":2}}");
    assertThat(options.at("/yAxis/axisPlacement").asText()).isEqualTo("hidden");
    JsonNode unsplit =
        options(imported("\"dataFormat\": \"timeseries\", \"yAxis\": {\"logBase\": 10}"));
    assertThat(unsplit.at("/calculation/yBuckets").toString())
        .isEqualTo("{\"mode\":\"count\",\"scale\":{\"type\":\"log\",\"log\":10}}");
  }

  @Test
  void tsbucketsAreDrawnAsTheBucketsTheyAre() throws Exception {
    JsonNode options =
        options(
            imported(
                """
                "dataFormat": "tsbuckets", "xBucketSize": "1m", "yBucketBound": "lower",
                "yAxis": {"format": "short", "logBase": 2}
                """));
    assertThat(options.path("calculate").asBoolean()).isFalse();
    assertThat(options.has("calculation")).isFalse();
    assertThat(options.at("/rowsFrame/layout").asText()).isEqualTo("le");
    assertThat(options.at("/yAxis/unit").asText()).isEqualTo("short");
  }

  @Test
  void aModernHeatmapIsLeftAsItIs() throws Exception {
    JsonNode options =
        options(
            imported(
                """
                "options": {"calculate": false, "yAxis": {"unit": "ms"}},
                "color": {"mode": "spectrum"}
                """));
    assertThat(options.toString()).isEqualTo("{\"calculate\":false,\"yAxis\":{\"unit\":\"ms\"}}");
  }
}
