package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.collector.host.MetricsText;
import io.flightdeck.exposition.ExpositionFormat;
import io.flightdeck.exposition.ExpositionParser;
import io.flightdeck.exposition.ParseOptions;
import io.flightdeck.testkit.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Every nvidia-smi XML fixture (DTD v10 to v13) read into the same readings as NVML gives. */
class NvidiaSmiXmlParserTest {

  /** Spot values per fixture; null means the series must be absent. */
  record Expected(
      String driver,
      String uuid,
      String model,
      String busId,
      double smClock,
      double gpuTemp,
      Double memoryTemp,
      double fbUsedMib,
      Double powerWatts,
      int processes) {}

  private static final Map<String, Expected> EXPECTED =
      Map.of(
          "a100-sxm4-v12.xml",
          new Expected(
              "535.54.03",
              "GPU-513536b6-7d19-9063-b049-1e69664bb298",
              "NVIDIA A100-SXM4-80GB",
              "00000000:01:00.0",
              1275,
              27,
              44.0,
              50,
              67.03,
              0),
          "a10g.xml",
          new Expected(
              "515.105.01",
              "GPU-9a9a6c50-2a47-2f51-a902-b82c3b127e94",
              "NVIDIA A10G",
              "00000000:00:1E.0",
              210,
              17,
              null,
              22,
              25.58,
              1),
          "gtx-1070-ti.xml",
          new Expected(
              null,
              "GPU-f9ba66fc-a7f5-94c5-da19-019ef2f9c665",
              "GeForce GTX 1070 Ti",
              "00000000:01:00.0",
              135,
              39,
              null,
              42,
              null,
              0),
          "rtx-3080-v12.xml",
          new Expected(
              "536.40",
              "GPU-19d6d965-2acc-f646-00f8-4c76979aabb4",
              "NVIDIA GeForce RTX 3080",
              "00000000:04:00.0",
              210,
              31,
              null,
              1128,
              22.78,
              5),
          "rtx-4000-sff-ada-v13.xml",
          new Expected(
              "595.84",
              "GPU-37037c3f-65c8-ec4d-24a9-420204ad8026",
              "NVIDIA RTX 4000 SFF Ada Generation",
              "00000000:06:00.0",
              210,
              38,
              null,
              3534,
              8.81,
              4),
          "tesla-t4.xml",
          new Expected(
              "515.105.01",
              "GPU-d37e67a5-91dd-3774-a5cb-99096249601a",
              "Tesla T4",
              "00000000:00:1E.0",
              585,
              40,
              null,
              1032,
              26.78,
              2));

  private final NvidiaSmiXmlParser parser = new NvidiaSmiXmlParser();

  @Test
  void everyFixtureParses() throws Exception {
    List<Path> files;
    try (Stream<Path> listing = Files.list(SharedFixtures.fixture("nvidia-smi/xml"))) {
      files = listing.filter(p -> p.toString().endsWith(".xml")).sorted().toList();
    }
    assertThat(files.stream().map(p -> p.getFileName().toString()))
        .containsExactlyInAnyOrderElementsOf(EXPECTED.keySet());

    for (Path file : files) {
      Expected expected = EXPECTED.get(file.getFileName().toString());
      NvidiaSmiLog log = parser.parse(Files.readAllBytes(file));

      assertThat(log.driverVersion()).as(file.toString()).isEqualTo(expected.driver());
      assertThat(log.gpus()).as(file.toString()).hasSize(1);
      GpuReading gpu = log.gpus().get(0);
      assertThat(gpu.identity())
          .isEqualTo(new GpuIdentity(0, expected.uuid(), expected.busId(), expected.model()));
      Map<DcgmField, Double> values = gpu.values();
      assertThat(values).as(file.toString()).containsEntry(DcgmField.SM_CLOCK, expected.smClock());
      assertThat(values).containsEntry(DcgmField.GPU_TEMP, expected.gpuTemp());
      assertThat(values.get(DcgmField.MEMORY_TEMP))
          .as(file.toString())
          .isEqualTo(expected.memoryTemp());
      assertThat(values).containsEntry(DcgmField.FB_USED, expected.fbUsedMib());
      assertThat(values.get(DcgmField.POWER_USAGE))
          .as(file.toString())
          .isEqualTo(expected.powerWatts());
      assertThat(gpu.processes()).as(file.toString()).hasSize(expected.processes());
      assertThat(values.values()).as("no sentinel or NaN").allMatch(v -> v >= 0 && v < 1e15);

      String text =
          MetricsText.toText(
              new GpuFamilies("host", log.driverVersion()).render(log.gpus(), pid -> details()));
      assertThat(
              ExpositionParser.parseAll(
                  ExpositionFormat.TEXT_0_0_4,
                  text.getBytes(StandardCharsets.UTF_8),
                  ParseOptions.defaults()))
          .isNotEmpty();
    }
  }

  @Test
  void readsNewerFieldsOfTheV13Fixture() throws Exception {
    GpuReading gpu =
        parser
            .parse(
                Files.readAllBytes(
                    SharedFixtures.fixture("nvidia-smi/xml/rtx-4000-sff-ada-v13.xml")))
            .gpus()
            .get(0);

    assertThat(gpu.values())
        .containsEntry(DcgmField.FB_RESERVED, 460.0)
        .containsEntry(DcgmField.PROF_PCIE_TX_BYTES, 830.0 * 1024)
        .containsEntry(DcgmField.CLOCKS_EVENT_REASONS, 1.0)
        .containsEntry(DcgmField.ROW_REMAP_FAILURE, 0.0)
        .doesNotContainKey(DcgmField.ECC_SBE_VOL_TOTAL);
    assertThat(gpu.processes().get(0)).isEqualTo(new GpuProcess(1842, OptionalLong.of(410L << 20)));
  }

  @Test
  void rejectsEntityDeclarations() {
    byte[] xxe =
        """
        <?xml version="1.0"?>
        <!DOCTYPE nvidia_smi_log [<!ENTITY x SYSTEM "file:///etc/passwd">]>
        <nvidia_smi_log><driver_version>&x;</driver_version></nvidia_smi_log>
        """
            .getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> parser.parse(xxe))
        .isInstanceOf(NvidiaSmiXmlParser.NvidiaSmiXmlException.class)
        .hasMessage("DOCTYPE with an internal subset is not accepted");
  }

  private static ProcessDetails details() {
    return new ProcessDetails(
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        java.util.Optional.empty(),
        Map.of());
  }
}
