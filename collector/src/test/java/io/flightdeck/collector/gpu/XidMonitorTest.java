package io.flightdeck.collector.gpu;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.host.MetricsText;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Xid draining through {@link JnaNvml} from events the fake library queues. */
class XidMonitorTest {
  private static final String CONFIG =
      """
      count=3
      xid=0:48,1:31,0:48,2:79,0:94,0:48
      gpu0.uuid=GPU-a
      gpu0.events=15
      gpu1.uuid=GPU-b
      gpu1.events=8
      gpu2.uuid=GPU-c
      gpu2.events=ERR:4
      """;

  @TempDir Path dir;

  @Test
  void countsEveryXidAndKeepsTheLast() throws Exception {
    Nvml nvml = FakeNvmlLibrary.build(dir, CONFIG).load();
    XidMonitor monitor = new XidMonitor(nvml, XidCatalog.load(), devices(nvml));

    int events = 0;
    while (monitor.pollOnce(0)) {
      events++;
    }
    String text = MetricsText.toText(monitor.families(new GpuFamilies("h", null)));
    monitor.close();
    nvml.shutdown();

    // The event for gpu2 is never delivered: it could not register (no permission).
    assertThat(events).isEqualTo(5);
    assertThat(monitor.failures())
        .containsOnlyKeys("gpu2 xid events")
        .containsValue("[call=nvmlDeviceGetSupportedEventTypes] [code=4] Unknown Error");
    assertThat(text)
        .contains(
            "DCGM_FI_DEV_XID_ERRORS{Hostname=\"h\",UUID=\"GPU-a\",device=\"nvidia0\",err_code=\"48\","
                + "err_msg=\"Uncorrectable double-bit ECC memory error\",gpu=\"0\"} 48")
        .contains(
            "flightdeck_gpu_xid_errors_total{Hostname=\"h\",UUID=\"GPU-a\","
                + "description=\"Uncorrectable double-bit ECC memory error\",device=\"nvidia0\","
                + "gpu=\"0\",xid=\"48\"} 3")
        .contains(
            "flightdeck_gpu_xid_errors_total{Hostname=\"h\",UUID=\"GPU-a\","
                + "description=\"Contained uncorrectable ECC error: only the affected application"
                + " must restart\",device=\"nvidia0\",gpu=\"0\",xid=\"94\"} 1")
        .contains("gpu=\"1\",xid=\"31\"} 1")
        .doesNotContain("GPU-c");
  }

  @Test
  void reportsNoErrorBeforeTheFirstXid() throws Exception {
    Nvml nvml = FakeNvmlLibrary.build(dir, "count=1\ngpu0.events=8\n").load();
    XidMonitor monitor = new XidMonitor(nvml, XidCatalog.load(), devices(nvml));

    assertThat(monitor.pollOnce(1)).isFalse();
    String text = MetricsText.toText(monitor.families(new GpuFamilies("h", null)));
    monitor.close();
    nvml.shutdown();

    assertThat(text)
        .isEqualTo(
            """
            # HELP DCGM_FI_DEV_XID_ERRORS Value of the last XID error encountered.
            # TYPE DCGM_FI_DEV_XID_ERRORS gauge
            DCGM_FI_DEV_XID_ERRORS{Hostname="h",device="nvidia0",err_code="0",err_msg="No Error",gpu="0"} 0
            """);
  }

  @Test
  void drainRecordsTheQueuedEventsWithoutWaitingNorAThread() throws Exception {
    Nvml nvml = FakeNvmlLibrary.build(dir, CONFIG).load();
    XidMonitor monitor = new XidMonitor(nvml, XidCatalog.load(), devices(nvml));

    long start = System.nanoTime();
    int first = monitor.drain();
    int second = monitor.drain();
    long elapsedMs = (System.nanoTime() - start) / 1_000_000;
    String text = MetricsText.toText(monitor.families(new GpuFamilies("h", null)));
    monitor.close();
    nvml.shutdown();

    assertThat(first).isEqualTo(5);
    assertThat(second).isZero();
    // The fake sleeps a wait's whole timeout when no event is queued, as the driver blocks.
    assertThat(elapsedMs).isLessThan(1000);
    assertThat(text).contains("gpu=\"0\",xid=\"48\"} 3").contains("gpu=\"1\",xid=\"31\"} 1");
    assertThat(monitor.failures()).containsOnlyKeys("gpu2 xid events");
    assertThat(Thread.getAllStackTraces().keySet())
        .noneMatch(t -> t.getName().equals("nvml-xid-monitor"));
  }

  private static List<XidMonitor.Device> devices(Nvml nvml) throws NvmlException {
    List<XidMonitor.Device> devices = new java.util.ArrayList<>();
    for (int i = 0; i < nvml.deviceCount(); i++) {
      long handle = nvml.deviceHandleByIndex(i);
      String uuid = nvml.deviceCount() == 1 ? null : nvml.uuid(handle);
      devices.add(new XidMonitor.Device(new GpuIdentity(i, uuid, null, null), handle));
    }
    return devices;
  }
}
