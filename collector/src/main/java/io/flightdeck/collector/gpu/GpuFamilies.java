package io.flightdeck.collector.gpu;

import io.flightdeck.collector.host.MetricFamily;
import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Turns {@link GpuReading}s into metric families: the DCGM-named fields with dcgm-exporter's
 * labels, the health gauge, one 0/1 series per clock event reason, and per-process memory. Keeps
 * the label sets of one rendering for the next ({@link GpuLabelSets}); not thread-safe.
 */
final class GpuFamilies {
  static final String HEALTHY_METRIC = "flightdeck_gpu_healthy";
  static final String CLOCK_EVENT_REASON = "flightdeck_gpu_clock_event_reason_active";
  static final String PROCESS_MEMORY = "flightdeck_gpu_process_memory_bytes";

  /** NVML's clock event reason bits, in bit order, named for the {@code reason} label. */
  private static final String[] CLOCK_EVENT_REASONS = {
    "gpu_idle",
    "applications_clocks_setting",
    "sw_power_cap",
    "hw_slowdown",
    "sync_boost",
    "sw_thermal_slowdown",
    "hw_thermal_slowdown",
    "hw_power_brake_slowdown",
    "display_clocks_setting"
  };

  private final GpuLabelSets labelSets;

  /** {@code driverVersion} null leaves the {@code DCGM_FI_DRIVER_VERSION} label out. */
  GpuFamilies(String hostname, String driverVersion) {
    this.labelSets = new GpuLabelSets(hostname, driverVersion);
  }

  /** The labels every series of {@code identity} carries, then {@code extra} name/value pairs. */
  Labels labels(GpuIdentity identity, String... extra) {
    return labelSets.of(identity, extra);
  }

  /** The families of one collection; the Xid families of the same collection follow it. */
  List<MetricFamily> render(List<GpuReading> readings, IntFunction<ProcessDetails> processes) {
    labelSets.nextCollection();
    Map<DcgmField, MetricFamily> fields = new EnumMap<>(DcgmField.class);
    MetricFamily healthy =
        MetricFamily.gauge(
            HEALTHY_METRIC,
            "Whether the GPU answers NVML (1) or was lost (0); reason says why, ok when healthy.");
    MetricFamily reasons =
        MetricFamily.gauge(
            CLOCK_EVENT_REASON,
            "Whether a clock event (throttle) reason is active (1) or not (0).");
    MetricFamily memory =
        MetricFamily.gauge(PROCESS_MEMORY, "GPU memory used by a process (in bytes).");
    for (GpuReading reading : readings) {
      GpuIdentity id = reading.identity();
      healthy.add(reading.healthy() ? 1 : 0, labels(id, "reason", reading.health()));
      Map<Integer, ProcessDetails> details = new java.util.LinkedHashMap<>();
      for (GpuProcess process : reading.processes()) {
        details.put(process.pid(), processes.apply(process.pid()));
      }
      // One label set per GPU for all its fields, not one per series; with the pod using it, as
      // dcgm-exporter labels a GPU allocated to a pod.
      String[] pod = podLabels(details.values());
      Labels gpu = labels(id, pod);
      Labels approximated = labels(id, concat(pod, "source", "nvml_pcie_throughput"));
      for (Map.Entry<DcgmField, Double> value : reading.values().entrySet()) {
        DcgmField field = value.getKey();
        fields
            .computeIfAbsent(field, GpuFamilies::family)
            .add(value.getValue(), field.approximated() ? approximated : gpu);
      }
      Double mask = reading.values().get(DcgmField.CLOCKS_EVENT_REASONS);
      if (mask != null) {
        long bits = mask.longValue();
        for (int bit = 0; bit < CLOCK_EVENT_REASONS.length; bit++) {
          reasons.add((bits >>> bit) & 1, labels(id, "reason", CLOCK_EVENT_REASONS[bit]));
        }
      }
      for (GpuProcess process : reading.processes()) {
        if (process.usedMemoryBytes().isPresent()) {
          memory.add(
              process.usedMemoryBytes().getAsLong(),
              labels(id, processLabels(process.pid(), details.get(process.pid()))));
        }
      }
    }
    List<MetricFamily> families = new ArrayList<>(fields.values());
    families.add(healthy);
    if (!reasons.samples().isEmpty()) {
      families.add(reasons);
    }
    if (!memory.samples().isEmpty()) {
      families.add(memory);
    }
    return families;
  }

  private static MetricFamily family(DcgmField field) {
    return field.type() == MetricType.COUNTER
        ? MetricFamily.counter(field.metricName(), field.help())
        : MetricFamily.gauge(field.metricName(), field.help());
  }

  /**
   * {@code namespace} and {@code pod} when every process on the GPU whose pod is known runs in the
   * same pod; none otherwise (no pod, or a GPU shared by several pods).
   */
  private static String[] podLabels(java.util.Collection<ProcessDetails> details) {
    java.util.Set<List<String>> pods = new java.util.HashSet<>();
    for (ProcessDetails d : details) {
      if (d.pod().isPresent()) {
        pods.add(List.of(d.namespace().orElse(""), d.pod().get()));
      }
    }
    if (pods.size() != 1) {
      return new String[0];
    }
    List<String> only = pods.iterator().next();
    return only.get(0).isEmpty()
        ? new String[] {"pod", only.get(1)}
        : new String[] {"namespace", only.get(0), "pod", only.get(1)};
  }

  private static String[] concat(String[] first, String... more) {
    String[] all = java.util.Arrays.copyOf(first, first.length + more.length);
    System.arraycopy(more, 0, all, first.length, more.length);
    return all;
  }

  private static String[] processLabels(int pid, ProcessDetails details) {
    List<String> pairs = new ArrayList<>(List.of("pid", Integer.toString(pid)));
    details.commandLine().ifPresent(c -> pairs.addAll(List.of("command", c)));
    details.containerId().ifPresent(c -> pairs.addAll(List.of("container_id", c)));
    details.podUid().ifPresent(p -> pairs.addAll(List.of("pod_uid", p)));
    details.pod().ifPresent(p -> pairs.addAll(List.of("pod", p)));
    details.namespace().ifPresent(n -> pairs.addAll(List.of("namespace", n)));
    details
        .rankEnvironment()
        .forEach(
            (name, value) -> pairs.addAll(List.of(name.toLowerCase(java.util.Locale.ROOT), value)));
    return pairs.toArray(String[]::new);
  }
}
