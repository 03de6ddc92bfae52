package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link JnaNvml} against the fake library: struct layouts (GPM's included) through both bindings
 * of the collection calls, fallbacks and load failures.
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

  @ParameterizedTest(name = "tryDirect={0}")
  @ValueSource(booleans = {true, false})
  void readsStructsAndFallsBackToMemoryV1(boolean tryDirect) throws Exception {
    JnaNvml nvml =
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
            .load(tryDirect);
    assertThat(nvml.binding().direct()).isEqualTo(tryDirect);
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

  @ParameterizedTest(name = "tryDirect={0}")
  @ValueSource(booleans = {true, false})
  void readsGpmStructs(boolean tryDirect) throws Exception {
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
    JnaNvml nvml = fake.load(tryDirect);
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
    JnaNvml nvml =
        FakeNvmlLibrary.build(dir, "count=1\ngpu0.gpm=1\ngpu0.temp=41\n", "FAKE_NVML_NO_GPM")
            .load(true);

    long gpu0 = nvml.deviceHandleByIndex(0);

    // Direct mapping needs every symbol: the calls fall back to the per-call lookup, and the
    // readings the driver has still come.
    assertThat(nvml.binding().direct()).isFalse();
    assertThat(nvml.binding().description()).startsWith("looked up per call").contains("nvmlGpm");
    assertThat(nvml.temperature(gpu0, Nvml.TEMPERATURE_GPU)).isEqualTo(41);
    assertThatThrownBy(() -> nvml.gpmSampleGet(gpu0, 0))
        .isInstanceOfSatisfying(
            NvmlException.class,
            e -> assertThat(e.code()).isEqualTo(NvmlException.FUNCTION_NOT_FOUND));

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
  void everyLibraryInOneJvmGetsItsOwnDirectBinding() throws Exception {
    JnaNvml first =
        FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("a")), "count=2\n").load(true);
    JnaNvml second =
        FakeNvmlLibrary.build(Files.createDirectories(dir.resolve("b")), "count=3\n").load(true);

    assertThat(first.binding().direct()).isTrue();
    assertThat(second.binding().direct()).isTrue();
    // Binding the second library must not have redirected the first one's calls.
    assertThat(first.deviceCount()).isEqualTo(2);
    assertThat(second.deviceCount()).isEqualTo(3);
    first.shutdown();
    second.shutdown();
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
