package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.collector.host.MetricsText;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The nvidia-smi fallback, run against a fake {@code nvidia-smi} that prints a fixture. */
class NvidiaSmiCollectorTest {
  @TempDir Path dir;

  @Test
  void aFakeNvidiaSmiOnThePathIsFoundAndItsXmlServedUnderDcgmNames() throws Exception {
    Path bin = fakeTool("cat '" + SharedFixtures.fixture("nvidia-smi/xml/a100-sxm4-v12.xml") + "'");
    assertThat(NvidiaSmiCollector.onPath("/nonexistent:" + bin.getParent())).contains(bin);
    assertThat(NvidiaSmiCollector.onPath("/nonexistent")).isEmpty();

    GpuCollector.Scrape scrape =
        new NvidiaSmiCollector(bin, "node-0", Path.of("/nonexistent-proc")).collect();

    assertThat(scrape.failures()).isEmpty();
    String text = MetricsText.toText(scrape.families());
    assertThat(text)
        .contains("UUID=\"GPU-513536b6-7d19-9063-b049-1e69664bb298\"")
        .contains("gpu=\"0\"")
        .contains("Hostname=\"node-0\"")
        .contains("DCGM_FI_DRIVER_VERSION=\"535.54.03\"");
    assertThat(value(scrape, "DCGM_FI_DEV_GPU_TEMP")).isEqualTo(27.0);
    assertThat(value(scrape, "DCGM_FI_DEV_POWER_USAGE")).isEqualTo(67.03);
  }

  @Test
  void aFailingToolOrGarbageIsAFailureNamingIt() throws Exception {
    Path failing =
        fakeTool("echo 'NVIDIA-SMI has failed because it could not communicate'; exit 9");
    GpuCollector.Scrape failed = new NvidiaSmiCollector(failing, "n", dir).collect();
    assertThat(failed.families()).isEmpty();
    assertThat(failed.failures().get("nvidia-smi"))
        .isEqualTo(
            failing
                + " -q -x exited with 9: NVIDIA-SMI has failed because it could not communicate");

    Path garbage = fakeTool("echo 'not xml'");
    GpuCollector.Scrape unreadable = new NvidiaSmiCollector(garbage, "n", dir).collect();
    assertThat(unreadable.families()).isEmpty();
    assertThat(unreadable.failures()).containsKey("nvidia-smi");
  }

  private static double value(GpuCollector.Scrape scrape, String name) {
    for (MetricFamily family : scrape.families()) {
      if (family.name().equals(name)) {
        return family.samples().get(0).value();
      }
    }
    throw new AssertionError(name + " not collected");
  }

  private Path fakeTool(String body) throws Exception {
    Path folder = Files.createTempDirectory(dir, "bin");
    Path tool = folder.resolve("nvidia-smi");
    Files.writeString(tool, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    return tool;
  }
}
