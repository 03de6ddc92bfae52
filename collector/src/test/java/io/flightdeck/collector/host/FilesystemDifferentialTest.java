package io.flightdeck.collector.host;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The filesystem collector beside a real node_exporter 1.5 on this host, at the same moment. */
class FilesystemDifferentialTest {
  @TempDir Path temp;

  @Test
  void liveMountsMatchNodeExporter() throws Exception {
    NodeExporterProcess.requireInstalled();
    Map<Labels, Double> theirs;
    Map<Labels, Double> ours = new HashMap<>();
    try (NodeExporterProcess exporter =
        NodeExporterProcess.start(temp.resolve("node_exporter.log"), "--collector.filesystem")) {
      for (MetricFamily family : FilesystemCollector.linux(Path.of("/proc")).collect()) {
        for (MetricFamily.Sample sample : family.samples()) {
          ours.put(
              sample.labels().toBuilder().set(Labels.METRIC_NAME, family.name()).build(),
              sample.value());
        }
      }
      theirs = new HashMap<>();
      exporter
          .scrape()
          .forEach(
              (series, value) -> {
                if (series.metricName().startsWith("node_filesystem_")) {
                  theirs.put(series, value);
                }
              });
    }

    assertThat(ours).as("at least the root filesystem").isNotEmpty();
    assertThat(ours.keySet()).isEqualTo(theirs.keySet());
    for (Map.Entry<Labels, Double> entry : ours.entrySet()) {
      String name = entry.getKey().metricName();
      double slack =
          switch (name) {
            case "node_filesystem_free_bytes", "node_filesystem_avail_bytes" -> 256.0 * (1 << 20);
            case "node_filesystem_files_free" -> 10_000;
            default -> 0;
          };
      assertThat(entry.getValue())
          .as(entry.getKey().toString())
          .isBetween(theirs.get(entry.getKey()) - slack, theirs.get(entry.getKey()) + slack);
    }
  }
}
