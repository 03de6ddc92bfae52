package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Coverage-guided fuzzing of dashboard import (Jazzer): Grafana classic, Grafana resources, Perses
 * JSON or YAML, our own model. Without {@code JAZZER_FUZZ} this replays the committed inputs in
 * {@code DashboardJazzerFuzzTestInputs/importDocument}; {@code ./run-tests --fuzz dashboard}
 * explores from them (docs/testing.md).
 */
class DashboardJazzerFuzzTest {
  /**
   * Whatever the bytes, an import gives a dashboard or a {@link DashboardFormatException} naming
   * where; nothing else escapes. A dashboard it gives survives export to Grafana and import again
   * unchanged, the round trip users rely on to keep dashboards in git.
   */
  @FuzzTest(maxDuration = "30s")
  void importDocument(byte[] bytes) {
    ImportResult imported;
    try {
      imported = DashboardImporter.importDocument(bytes);
    } catch (DashboardFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    }
    Dashboard dashboard = imported.dashboard();
    Dashboard again =
        DashboardImporter.importTree(GrafanaClassicExporter.export(dashboard)).dashboard();
    assertThat(GrafanaClassicExporter.export(again))
        .isEqualTo(GrafanaClassicExporter.export(dashboard));
  }
}
