package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import org.junit.jupiter.api.Test;

class GpuLabelSetsTest {
  private static final GpuIdentity GPU0 =
      new GpuIdentity(0, "GPU-aaaa", "00000000:01:00.0", "NVIDIA H100 80GB HBM3");

  private final GpuLabelSets sets = new GpuLabelSets("node1", "590.48.01");

  @Test
  void aGpusSetsComeBackTheSameInTheNextCollection() {
    sets.nextCollection();
    Labels first = sets.of(GPU0, "reason", "ok");
    sets.nextCollection();
    Labels second = sets.of(GPU0, "reason", "ok");

    assertThat(second).isSameAs(first);
    assertThat(second)
        .isEqualTo(
            Labels.of(
                "gpu", "0",
                "UUID", "GPU-aaaa",
                "pci_bus_id", "00000000:01:00.0",
                "device", "nvidia0",
                "modelName", "NVIDIA H100 80GB HBM3",
                "Hostname", "node1",
                "DCGM_FI_DRIVER_VERSION", "590.48.01",
                "reason", "ok"));
  }

  @Test
  void anotherGpuAtTheSameIndexOrOtherExtraPairsGetTheirOwnSets() {
    sets.nextCollection();
    Labels ok = sets.of(GPU0, "reason", "ok");
    Labels lost = sets.of(GPU0, "reason", "gpu_is_lost");
    sets.nextCollection();
    GpuIdentity replaced = new GpuIdentity(0, "GPU-bbbb", "00000000:01:00.0", "NVIDIA H200");
    Labels afterSwap = sets.of(replaced, "reason", "ok");
    Labels indexOnly = sets.of(GpuIdentity.indexOnly(0), "reason", "ok");

    assertThat(lost.get("reason")).isEqualTo("gpu_is_lost");
    assertThat(ok.get("reason")).isEqualTo("ok");
    assertThat(afterSwap.get("UUID")).isEqualTo("GPU-bbbb");
    assertThat(afterSwap.get("modelName")).isEqualTo("NVIDIA H200");
    assertThat(indexOnly.get("UUID")).isEmpty();
    assertThat(indexOnly.get("device")).isEqualTo("nvidia0");
  }

  @Test
  void setsUnusedForAWholeCollectionAreDropped() {
    sets.nextCollection();
    Labels process = sets.of(GPU0, "pid", "4242", "command", "python");
    sets.nextCollection(); // the process ended: not asked for
    sets.nextCollection();
    Labels again = sets.of(GPU0, "pid", "4242", "command", "python");

    assertThat(again).isEqualTo(process).isNotSameAs(process);
  }

  @Test
  void withoutADriverVersionTheLabelIsLeftOut() {
    GpuLabelSets noDriver = new GpuLabelSets("node1", null);

    assertThat(noDriver.of(GPU0).get("DCGM_FI_DRIVER_VERSION")).isEmpty();
    assertThat(noDriver.of(GPU0).get("Hostname")).isEqualTo("node1");
  }
}
