package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The GPUs the store knows of, by host, from the identity labels of dcgm-exporter-named series
 * ({@code gpu}, {@code UUID}, {@code Hostname} or {@code instance}), and the per-process series of
 * Flightdeck's collector ({@code flightdeck_gpu_process_memory_bytes}, with {@code pid} and the
 * process's {@code rank}/{@code local_rank}). Read once per catalog answer, labels only.
 */
final class GpuInventory {
  static final String PROCESS_METRIC = "flightdeck_gpu_process_memory_bytes";
  private static final String IDENTITY_METRICS =
      "DCGM_FI_DEV_GPU_TEMP|DCGM_FI_DEV_GPU_UTIL|DCGM_FI_DEV_FB_USED|DCGM_FI_DEV_XID_ERRORS"
          + "|flightdeck_gpu_healthy";

  /** GPU index to GPU, by every name of its host. */
  private final Map<String, TreeMap<String, RunGpu>> byHost = new HashMap<>();

  private final List<Labels> processes = new ArrayList<>();

  static GpuInventory read(Querier querier) {
    GpuInventory inventory = new GpuInventory();
    SeriesSet gpus = querier.select(false, Matcher.regex(Labels.METRIC_NAME, IDENTITY_METRICS));
    while (gpus.next()) {
      inventory.addGpu(gpus.at().labels());
    }
    SeriesSet processes = querier.select(false, Matcher.equal(Labels.METRIC_NAME, PROCESS_METRIC));
    while (processes.next()) {
      inventory.processes.add(processes.at().labels());
    }
    return inventory;
  }

  private void addGpu(Labels labels) {
    String gpu = labels.get("gpu");
    if (gpu.isEmpty()) {
      return;
    }
    String host = Hosts.of(labels);
    String uuid = labels.get("UUID");
    RunGpu entry = new RunGpu(host, gpu, uuid.isEmpty() ? null : uuid);
    for (String name : Hosts.allOf(labels)) {
      TreeMap<String, RunGpu> gpus = byHost.computeIfAbsent(name, k -> new TreeMap<>(Gpus.ORDER));
      RunGpu known = gpus.get(gpu);
      if (known == null || known.uuid() == null) {
        gpus.put(gpu, entry);
      }
    }
  }

  /** The GPUs of a host, by index; empty when the host has none known. */
  Map<String, RunGpu> gpusOf(String host) {
    return byHost.getOrDefault(host, new TreeMap<>());
  }

  /** The per-process series, labels only. */
  List<Labels> processes() {
    return processes;
  }

  /** Orders GPU indices as numbers when they are. */
  static final class Gpus {
    static final java.util.Comparator<String> ORDER =
        (a, b) -> {
          boolean numbers = a.chars().allMatch(Character::isDigit) && !a.isEmpty();
          numbers &= b.chars().allMatch(Character::isDigit) && !b.isEmpty();
          if (numbers && a.length() != b.length()) {
            return Integer.compare(a.length(), b.length());
          }
          return a.compareTo(b);
        };

    private Gpus() {}
  }
}
