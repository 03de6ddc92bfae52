package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.model.Clock;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which GPU source a node uses: NVML, else nvidia-smi on the PATH, else none. */
class NodeCollectionTest {
  @TempDir Path dir;

  @Test
  void withoutNvmlButWithNvidiaSmiOnThePathGpusAreReadFromIt() throws Exception {
    Path bin = Files.createDirectories(dir.resolve("bin"));
    Path tool = bin.resolve("nvidia-smi");
    Files.writeString(
        tool, "#!/bin/sh\ncat '" + SharedFixtures.fixture("nvidia-smi/xml/tesla-t4.xml") + "'\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));

    try (NodeCollection node =
        new NodeCollection(
            Path.of("/proc"), "libno-such-nvml.so.1", "node-t4", Clock.system(), "/none:" + bin)) {
      List<MetricFamily> families = node.collect();
      assertThat(families).extracting(MetricFamily::name).contains("DCGM_FI_DEV_GPU_TEMP");
      assertThat(families)
          .filteredOn(f -> f.name().equals("DCGM_FI_DEV_FB_USED"))
          .singleElement()
          .satisfies(
              f -> assertThat(f.samples().get(0).labels().get("Hostname")).isEqualTo("node-t4"));
      assertThat(families).extracting(MetricFamily::name).contains("node_cpu_seconds_total");
    }
  }

  @Test
  void withNeitherOnlyHostMetricsAreCollected() throws Exception {
    try (NodeCollection node =
        new NodeCollection(
            Path.of("/proc"), "libno-such-nvml.so.1", "node-x", Clock.system(), "/none")) {
      List<MetricFamily> families = node.collect();
      assertThat(families).extracting(MetricFamily::name).contains("node_cpu_seconds_total");
      assertThat(families).extracting(MetricFamily::name).noneMatch(n -> n.startsWith("DCGM_"));
    }
  }
}
