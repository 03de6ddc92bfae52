package io.flightdeck.training;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code hung_rank}: during a stall (in DDP every rank waits on the slowest), the GPU that differs
 * from the run's others. A GPU with an XID or a loss in the stall (or just before it) is named
 * first; else one whose utilisation or power during the stall stands apart from its peers' median
 * (the hung GPU idles while the others spin in NCCL, or the reverse). Nothing is named when no GPU
 * or too many differ (a stall of the whole job, such as a dead data source).
 */
final class HungRanks {
  static final String UTIL = "DCGM_FI_DEV_GPU_UTIL";
  static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  /** Utilisation points (0–100) by which a GPU must differ from its peers' median. */
  static final double UTIL_POINTS = 30;

  /** Fraction of the peers' median power by which a GPU must differ. */
  static final double POWER_FRACTION = 0.3;

  private HungRanks() {}

  static List<RunEvent> detect(RunWindow window, List<RunEvent> faults) {
    List<RunEvent> found = new ArrayList<>();
    if (window.stalls().isEmpty() || window.hardware().gpus().size() < 2) {
      return found;
    }
    Map<RunGpu, RunDevices.Read> util = RunDevices.gpus(window, UTIL);
    Map<RunGpu, RunDevices.Read> power = RunDevices.gpus(window, POWER);
    for (long[] stall : window.stalls()) {
      long from = stall[0];
      long to = stall[1];
      if (to < window.startMs()) {
        continue;
      }
      Map<RunGpu, Map<String, Object>> named = new LinkedHashMap<>();
      long before = from - 5 * window.intervalMs();
      for (RunEvent fault : faults) {
        boolean inStall = fault.timeMs() >= before && fault.timeMs() <= to;
        if (inStall && fault.gpu() != null) {
          RunGpu gpu = find(window, fault.host(), fault.gpu());
          if (gpu != null) {
            named.computeIfAbsent(gpu, g -> new LinkedHashMap<>()).put(fault.kind(), fault.title());
          }
        }
      }
      if (named.isEmpty()) {
        // Skip the stall's first quarter: the step stops moving before the GPUs settle.
        long settled = from + (to - from) / 4;
        outliers(named, util, settled, to, UTIL, (median, v) -> Math.abs(v - median) > UTIL_POINTS);
        outliers(
            named,
            power,
            settled,
            to,
            POWER,
            (median, v) -> Math.abs(v - median) > POWER_FRACTION * Math.abs(median));
      }
      int most = Math.max(1, window.hardware().gpus().size() / 4);
      if (named.isEmpty() || named.size() > most) {
        continue;
      }
      for (Map.Entry<RunGpu, Map<String, Object>> entry : named.entrySet()) {
        RunGpu gpu = entry.getKey();
        Map<String, Object> evidence = new LinkedHashMap<>(entry.getValue());
        evidence.put("stall_seconds", (to - from) / 1000.0);
        found.add(
            RunEvents.event(
                "hung_rank",
                from,
                to,
                window.stepAt(from),
                gpu.host(),
                gpu.gpu(),
                "GPU " + gpu.gpu() + " of " + gpu.host() + " holds up the run",
                Map.of(),
                evidence));
      }
    }
    return found;
  }

  private interface Differs {
    boolean test(double peersMedian, double value);
  }

  /** Adds the GPUs whose median of {@code metric} over the span differs from all GPUs' median. */
  private static void outliers(
      Map<RunGpu, Map<String, Object>> named,
      Map<RunGpu, RunDevices.Read> reads,
      long from,
      long to,
      String metric,
      Differs differs) {
    Map<RunGpu, Double> medians = new LinkedHashMap<>();
    for (Map.Entry<RunGpu, RunDevices.Read> entry : reads.entrySet()) {
      double[] values = RunDevices.between(entry.getValue().samples(), from, to + 1);
      if (values.length >= 2) {
        medians.put(entry.getKey(), RobustStats.median(values));
      }
    }
    if (medians.size() < 3) {
      return;
    }
    double[] all = medians.values().stream().mapToDouble(Double::doubleValue).toArray();
    double peers = RobustStats.median(all);
    for (Map.Entry<RunGpu, Double> entry : medians.entrySet()) {
      if (differs.test(peers, entry.getValue())) {
        Map<String, Object> evidence =
            named.computeIfAbsent(entry.getKey(), g -> new LinkedHashMap<>());
        evidence.put(metric, entry.getValue());
        evidence.put(metric + "_peers_median", peers);
      }
    }
  }

  private static RunGpu find(RunWindow window, String host, String gpu) {
    for (RunGpu candidate : window.hardware().gpus()) {
      if (candidate.host().equals(host) && candidate.gpu().equals(gpu)) {
        return candidate;
      }
    }
    return null;
  }
}
