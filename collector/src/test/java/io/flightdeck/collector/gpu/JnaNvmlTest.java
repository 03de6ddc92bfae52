package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link JnaNvml} against the fake library: struct layouts (GPM's included), fallbacks and load
 * failures.
 */
class JnaNvmlTest {
  @TempDir Path dir;

  @Test
  void missingLibraryIsOneClearLine() {
    NvmlLoad load = JnaNvml.load(dir.resolve("absent/libnvidia-ml.so.1").toString());

    assertThat(load).isInstanceOf(NvmlLoad.Unavailable.class);
    String reason = ((NvmlLoad.Unavailable) load).reason();
    assertThat(reason)
        .startsWith("NVML not available: ")
        .contains("libnvidia-ml.so.1")
        .doesNotEndWith(":");
    assertThat(reason.lines()).hasSize(1);
  }

  @Test
  void failedInitIsUnavailableWithNvmlText() throws Exception {
    FakeNvmlLibrary fake = FakeNvmlLibrary.build(dir, "init=ERR:9\n");

    NvmlLoad load = JnaNvml.load(fake.path().toString());

    assertThat(load)
        .isEqualTo(
            new NvmlLoad.Unavailable(
                "NVML not available: nvmlInit_v2 failed: Driver Not Loaded (9)"));
  }

  @Test
  void readsStructsAndFallsBackToMemoryV1() throws Exception {
    Nvml nvml =
        FakeNvmlLibrary.build(
                dir,
                """
                count=2
                gpu0.pci=00000000:07:00.0
                gpu0.mem.v2=85899345920,536870912,1073741824,84289781760
                gpu0.procs=101:1048576,102:na,103:2097152
                gpu0.remap=3,1,1,0
                gpu0.field.82=45
                gpu1.mem.v2=ERR:3
                gpu1.mem.v1=1000,400,600
                gpu1.procs=
                """)
            .load();
    long gpu0 = nvml.deviceHandleByIndex(0);
    long gpu1 = nvml.deviceHandleByIndex(1);

    assertThat(nvml.pciBusId(gpu0)).isEqualTo("00000000:07:00.0");
    assertThat(nvml.memoryInfo(gpu0))
        .isEqualTo(
            new Nvml.MemoryInfo(
                85899345920L, 1073741824L, 84289781760L, OptionalLong.of(536870912L)));
    assertThat(nvml.memoryInfo(gpu1))
        .isEqualTo(new Nvml.MemoryInfo(1000, 400, 600, OptionalLong.empty()));
    assertThat(nvml.computeRunningProcesses(gpu0))
        .containsExactly(
            new Nvml.ProcessInfo(101, OptionalLong.of(1048576)),
            new Nvml.ProcessInfo(102, OptionalLong.empty()),
            new Nvml.ProcessInfo(103, OptionalLong.of(2097152)));
    assertThat(nvml.computeRunningProcesses(gpu1)).isEmpty();
    assertThat(nvml.remappedRows(gpu0)).isEqualTo(new Nvml.RemappedRows(3, 1, true, false));
    assertThat(nvml.fieldValues(gpu0, new int[] {82, 83}, new int[] {0, 0}))
        .containsExactly(
            new Nvml.FieldValue(82, 0, 0, 45.0),
            new Nvml.FieldValue(83, 0, NvmlException.NOT_SUPPORTED, 0.0));
    assertThatThrownBy(() -> nvml.temperature(gpu0, Nvml.TEMPERATURE_GPU))
        .isInstanceOfSatisfying(
            NvmlException.class, e -> assertThat(e.absent()).as(e.getMessage()).isTrue());
    nvml.shutdown();
  }

  @Test
  void readsGpmStructs() throws Exception {
    FakeNvmlLibrary fake =
        FakeNvmlLibrary.build(
            dir,
            """
            count=3
            gpu0.gpm=1
            gpu0.gpm.1=87.5
            gpu0.gpm.5=ERR:999
            gpu1.gpm=0
            """);
    Nvml nvml = fake.load();
    long gpu0 = nvml.deviceHandleByIndex(0);
    int[] ids = {
      Nvml.GPM_METRIC_GRAPHICS_UTIL, Nvml.GPM_METRIC_ANY_TENSOR_UTIL, Nvml.GPM_METRIC_DRAM_BW_UTIL
    };

    assertThat(nvml.gpmSupported(gpu0)).isTrue();
    assertThat(nvml.gpmSupported(nvml.deviceHandleByIndex(1))).isFalse();
    assertThatThrownBy(() -> nvml.gpmSupported(nvml.deviceHandleByIndex(2)))
        .isInstanceOfSatisfying(NvmlException.class, e -> assertThat(e.absent()).isTrue());
    long older = nvml.gpmSampleAlloc();
    long newer = nvml.gpmSampleAlloc();
    nvml.gpmSampleGet(gpu0, older);
    nvml.gpmSampleGet(gpu0, newer);
    // The stub fills every 40-byte entry (metricInfo pointers included) by its own C layout.
    assertThat(nvml.gpmMetrics(older, newer, ids))
        .containsExactly(
            new Nvml.GpmMetric(1, NvmlException.SUCCESS, 87.5),
            new Nvml.GpmMetric(5, 999, 0.0),
            new Nvml.GpmMetric(10, NvmlException.NOT_SUPPORTED, 0.0));
    // sample1 and sample2 land in their own slots: the stub refuses a newer sample1.
    assertThatThrownBy(() -> nvml.gpmMetrics(newer, older, ids))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> assertThat(e.code()).isEqualTo(NvmlException.INVALID_ARGUMENT));
    assertThat(fake.stubCount("fake_gpm_live_samples")).isEqualTo(2);
    nvml.gpmSampleFree(older);
    nvml.gpmSampleFree(newer);
    assertThat(fake.stubCount("fake_gpm_live_samples")).isZero();
    nvml.shutdown();
  }

  @Test
  void driverWithoutGpmAnswersFunctionNotFound() throws Exception {
    Nvml nvml = FakeNvmlLibrary.build(dir, "count=1\ngpu0.gpm=1\n", "FAKE_NVML_NO_GPM").load();

    long gpu0 = nvml.deviceHandleByIndex(0);

    assertThatThrownBy(() -> nvml.gpmSupported(gpu0))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> {
              assertThat(e.code()).isEqualTo(NvmlException.FUNCTION_NOT_FOUND);
              assertThat(e.absent()).isTrue();
            });
    nvml.shutdown();
  }

  @Test
  void lostGpuAnswersLost() throws Exception {
    Nvml nvml = FakeNvmlLibrary.build(dir, "count=1\ngpu0.lost=1\n").load();

    long handle = nvml.deviceHandleByIndex(0);

    assertThatThrownBy(() -> nvml.name(handle))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> {
              assertThat(e.lost()).isTrue();
              assertThat(e.getMessage())
                  .isEqualTo("[call=nvmlDeviceGetName] [code=15] GPU is lost");
            });
    assertThat(List.of(nvml.deviceCount())).containsExactly(1);
    nvml.shutdown();
  }
}
