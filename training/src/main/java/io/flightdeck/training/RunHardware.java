package io.flightdeck.training;

import io.flightdeck.model.Labels;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hosts and GPUs of a run.
 *
 * <p>Process attribution comes first: per-process GPU series that carry the run's label, or that
 * sit on one of the run's hosts and share a {@code pid}, {@code rank} or {@code local_rank} with
 * one of the run's training series. Without them, each training series names its GPU by {@code
 * gpu}, {@code local_rank} or {@code device="cuda:N"}, looked up by index among the GPUs of its
 * host; a training series that names none claims every GPU of its host (one process driving all).
 */
record RunHardware(List<String> hosts, List<RunGpu> gpus) {
  private static final Pattern CUDA_DEVICE = Pattern.compile("(?:cuda:)?(\\d+)");
  private static final String[] SHARED_PROCESS_LABELS = {"pid", "rank", "local_rank"};

  static RunHardware of(
      String run, String runLabel, List<Labels> training, GpuInventory inventory) {
    Set<String> hosts = new TreeSet<>();
    for (Labels labels : training) {
      String host = Hosts.of(labels);
      if (!host.isEmpty()) {
        hosts.add(host);
      }
    }
    Map<String, RunGpu> gpus = new LinkedHashMap<>();
    for (RunGpu gpu : fromProcesses(run, runLabel, training, hosts, inventory)) {
      gpus.putIfAbsent(gpu.host() + "/" + gpu.gpu(), gpu);
    }
    if (gpus.isEmpty()) {
      for (Labels labels : training) {
        String host = Hosts.of(labels);
        if (host.isEmpty()) {
          continue;
        }
        Map<String, RunGpu> ofHost = inventory.gpusOf(host);
        String index = gpuIndex(labels);
        if (index == null) {
          ofHost.values().forEach(g -> gpus.putIfAbsent(g.host() + "/" + g.gpu(), g));
        } else {
          RunGpu known = ofHost.get(index);
          RunGpu gpu = known != null ? known : new RunGpu(host, index, null);
          gpus.putIfAbsent(gpu.host() + "/" + gpu.gpu(), gpu);
        }
      }
    }
    for (RunGpu gpu : gpus.values()) {
      hosts.add(gpu.host());
    }
    List<RunGpu> ordered = new ArrayList<>(gpus.values());
    ordered.sort(
        java.util.Comparator.comparing(RunGpu::host)
            .thenComparing(RunGpu::gpu, GpuInventory.Gpus.ORDER));
    return new RunHardware(List.copyOf(hosts), List.copyOf(ordered));
  }

  private static List<RunGpu> fromProcesses(
      String run, String runLabel, List<Labels> training, Set<String> hosts, GpuInventory inv) {
    Set<String> shared = new HashSet<>();
    for (Labels labels : training) {
      for (String name : SHARED_PROCESS_LABELS) {
        if (labels.has(name)) {
          shared.add(Hosts.of(labels) + "\u0000" + name + "=" + labels.get(name));
        }
      }
    }
    List<RunGpu> found = new ArrayList<>();
    for (Labels process : inv.processes()) {
      boolean mine = run.equals(process.get(runLabel));
      if (!mine) {
        for (String host : Hosts.allOf(process)) {
          if (!hosts.contains(host)) {
            continue;
          }
          for (String name : SHARED_PROCESS_LABELS) {
            mine |=
                process.has(name)
                    && shared.contains(host + "\u0000" + name + "=" + process.get(name));
          }
        }
      }
      if (mine && process.has("gpu")) {
        String host = Hosts.of(process);
        RunGpu known = inv.gpusOf(host).get(process.get("gpu"));
        String uuid = process.has("UUID") ? process.get("UUID") : null;
        found.add(known != null ? known : new RunGpu(host, process.get("gpu"), uuid));
      }
    }
    return found;
  }

  /** The GPU a training series names, or null. */
  static String gpuIndex(Labels labels) {
    if (labels.has("gpu")) {
      return labels.get("gpu");
    }
    if (labels.has("local_rank")) {
      return labels.get("local_rank");
    }
    Matcher device = CUDA_DEVICE.matcher(labels.get("device"));
    return device.matches() ? device.group(1) : null;
  }
}
