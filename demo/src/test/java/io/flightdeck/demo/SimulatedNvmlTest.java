package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.collector.gpu.GpuCollector;
import io.flightdeck.collector.host.MetricFamily;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The simulated GPUs through the real collector: its whole series set, then the Xid 79. */
class SimulatedNvmlTest {
  private static final long END = DemoScript.DEFAULT_DURATION.toSeconds();

  @Test
  void theCollectorServesEveryFieldWithoutFailures() throws Exception {
    AtomicInteger now = new AtomicInteger(600);
    ClusterModel model = new ClusterModel(1, 30, END);
    try (GpuCollector gpus = GpuCollector.create(new SimulatedNvml(model, 0, now::get), "node-0")) {
      gpus.start();
      gpus.collect();
      Thread.sleep(150); // GPM rates need two samples at least 100 ms apart
      now.set(610);
      GpuCollector.Scrape scrape = gpus.collect();
      assertThat(scrape.failures()).isEmpty();
      Set<String> names = new TreeSet<>();
      scrape.families().forEach(f -> names.add(f.name()));
      assertThat(names)
          .contains(
              "DCGM_FI_DEV_GPU_UTIL",
              "DCGM_FI_DEV_MEM_COPY_UTIL",
              "DCGM_FI_DEV_GPU_TEMP",
              "DCGM_FI_DEV_MEMORY_TEMP",
              "DCGM_FI_DEV_POWER_USAGE",
              "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION",
              "DCGM_FI_DEV_SM_CLOCK",
              "DCGM_FI_DEV_MEM_CLOCK",
              "DCGM_FI_DEV_FB_USED",
              "DCGM_FI_DEV_FB_FREE",
              "DCGM_FI_DEV_PCIE_REPLAY_COUNTER",
              "DCGM_FI_DEV_NVLINK_BANDWIDTH_TOTAL",
              "DCGM_FI_DEV_XID_ERRORS",
              "DCGM_FI_PROF_GR_ENGINE_ACTIVE",
              "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE",
              "DCGM_FI_PROF_DRAM_ACTIVE",
              "flightdeck_gpu_healthy");
      assertThat(values(scrape, "DCGM_FI_DEV_GPU_UTIL")).hasSize(DemoScript.GPUS_PER_NODE);
      assertThat(values(scrape, "DCGM_FI_DEV_GPU_TEMP").get("3"))
          .isEqualTo((double) model.temperature(0, 3, 610));
    }
  }

  @Test
  void theXid79LosesItsGpuAndOnlyThatOne() {
    int xid = (int) DemoScript.XID_AT.toSeconds();
    AtomicInteger now = new AtomicInteger(xid - 30);
    ClusterModel model = new ClusterModel(1, 30, END);
    try (GpuCollector gpus =
        GpuCollector.create(new SimulatedNvml(model, DemoScript.LOST_NODE, now::get), "node-1")) {
      gpus.start();
      GpuCollector.Scrape before = gpus.collect();
      assertThat(values(before, "flightdeck_gpu_healthy").values()).containsOnly(1.0);
      assertThat(values(before, "DCGM_FI_DEV_XID_ERRORS").values()).containsOnly(0.0);
      now.set(xid + 5);
      GpuCollector.Scrape after = gpus.collect();
      String lost = Integer.toString(DemoScript.LOST_GPU);
      Map<String, Double> healthy = values(after, "flightdeck_gpu_healthy");
      assertThat(healthy.get(lost)).isEqualTo(0.0);
      assertThat(healthy.values().stream().filter(v -> v == 1.0)).hasSize(7);
      assertThat(values(after, "DCGM_FI_DEV_XID_ERRORS").get(lost)).isEqualTo(79.0);
      assertThat(values(after, "flightdeck_gpu_xid_errors_total").get(lost)).isEqualTo(1.0);
      assertThat(values(after, "DCGM_FI_DEV_GPU_TEMP")).doesNotContainKey(lost).hasSize(7);
      assertThat(
              after.families().stream()
                  .filter(f -> f.name().equals("flightdeck_gpu_healthy"))
                  .flatMap(f -> f.samples().stream())
                  .filter(s -> s.value() == 0)
                  .map(s -> s.labels().get("reason")))
          .containsExactly("gpu_is_lost");
    }
  }

  /** One family's values by the {@code gpu} label. */
  private static Map<String, Double> values(GpuCollector.Scrape scrape, String name) {
    Map<String, Double> values = new TreeMap<>();
    for (MetricFamily family : scrape.families()) {
      if (family.name().equals(name)) {
        family.samples().forEach(s -> values.put(s.labels().get("gpu"), s.value()));
      }
    }
    return values;
  }
}
