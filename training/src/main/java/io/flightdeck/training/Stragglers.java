package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code straggler}: a GPU (or a rank) persistently slower than its peers: SM clock, utilisation,
 * power or the rank's samples/s below the peers' median by more than {@link #FRACTION} of it (and
 * more than five robust deviations of the peers' spread), in {@link #PERSIST} consecutive windows
 * of {@link #WINDOW_SAMPLES} samples. Windows where the job is idle (peers' utilisation below
 * {@link #IDLE_UTIL}), stalled (a hung rank, not a straggler) or restarting are not judged.
 */
final class Stragglers {
  static final String[] GPU_METRICS = {"DCGM_FI_DEV_SM_CLOCK", HungRanks.UTIL, HungRanks.POWER};
  static final String SAMPLES_METRIC = "samples_per_second";
  static final int WINDOW_SAMPLES = 4;
  static final int PERSIST = 3;
  static final double FRACTION = 0.15;
  static final double IDLE_UTIL = 20;

  private Stragglers() {}

  static List<RunEvent> detect(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    Map<RunGpu, RunDevices.Read> util = RunDevices.gpus(window, HungRanks.UTIL);
    if (util.size() < 3) {
      return found;
    }
    long interval = interval(util);
    long length = WINDOW_SAMPLES * interval;
    List<long[]> windows = new ArrayList<>();
    for (long a = window.readFrom(); a + length <= window.endMs() + 1; a += length) {
      long b = a + length;
      double busy = peersMedian(util, a, b);
      boolean judged =
          busy >= IDLE_UTIL && !window.inStall(a, b) && !window.restartedWithin(b, 2 * length);
      windows.add(new long[] {a, b, judged ? 1 : 0});
    }
    Map<RunGpu, List<long[]>> episodes = new LinkedHashMap<>();
    Map<RunGpu, Map<String, Object>> evidence = new LinkedHashMap<>();
    for (String metric : GPU_METRICS) {
      Map<RunGpu, RunDevices.Read> reads =
          metric.equals(HungRanks.UTIL) ? util : RunDevices.gpus(window, metric);
      slow(reads, windows, metric, episodes, evidence);
    }
    if (window.series() != null) {
      Map<RunGpu, RunDevices.Read> ranks = new LinkedHashMap<>();
      for (Series series : window.series().of(TrainingRole.SAMPLES_PER_SECOND)) {
        String gpu = RunHardware.gpuIndex(series.labels());
        String host = Hosts.of(series.labels());
        if (gpu != null && !host.isEmpty()) {
          ranks.put(
              new RunGpu(host, gpu, null),
              new RunDevices.Read(
                  series.labels(), SeriesReads.range(series, window.readFrom(), window.endMs())));
        }
      }
      slow(ranks, windows, SAMPLES_METRIC, episodes, evidence);
    }
    for (Map.Entry<RunGpu, List<long[]>> entry : episodes.entrySet()) {
      RunGpu gpu = entry.getKey();
      entry.getValue().sort(java.util.Comparator.comparingLong(e -> e[0]));
      long[] merged = null;
      List<long[]> distinct = new ArrayList<>();
      for (long[] episode : entry.getValue()) {
        if (merged != null && episode[0] <= merged[1]) {
          merged[1] = Math.max(merged[1], episode[1]);
        } else {
          merged = episode.clone();
          distinct.add(merged);
        }
      }
      for (long[] episode : distinct) {
        if (episode[1] < window.startMs()) {
          continue;
        }
        boolean open = episode[1] >= window.endMs() - length;
        found.add(
            RunEvents.event(
                "straggler",
                episode[0],
                open ? null : episode[1],
                window.stepAt(episode[0]),
                gpu.host(),
                gpu.gpu(),
                "GPU " + gpu.gpu() + " of " + gpu.host() + " is slower than its peers",
                Map.of(),
                evidence.get(gpu)));
      }
    }
    return found;
  }

  /** Records each GPU's first episode of {@link #PERSIST} slow windows in a row, per metric. */
  private static void slow(
      Map<RunGpu, RunDevices.Read> reads,
      List<long[]> windows,
      String metric,
      Map<RunGpu, List<long[]>> episodes,
      Map<RunGpu, Map<String, Object>> evidence) {
    if (reads.size() < 3) {
      return;
    }
    Map<RunGpu, Integer> run = new LinkedHashMap<>();
    for (long[] w : windows) {
      if (w[2] == 0) {
        run.clear();
        continue;
      }
      Map<RunGpu, Double> medians = medians(reads, w[0], w[1]);
      if (medians.size() < 3) {
        run.clear();
        continue;
      }
      double[] all = medians.values().stream().mapToDouble(Double::doubleValue).toArray();
      double peers = RobustStats.median(all);
      double spread = RobustStats.MAD_TO_SIGMA * RobustStats.mad(all, 0, all.length, peers);
      double limit = peers - Math.max(FRACTION * Math.abs(peers), 5 * spread);
      for (RunGpu gpu : reads.keySet()) {
        Double value = medians.get(gpu);
        if (value == null || value >= limit || peers <= 0) {
          run.remove(gpu);
          continue;
        }
        int slowWindows = run.merge(gpu, 1, Integer::sum);
        long began = w[0] - (slowWindows - 1) * (w[1] - w[0]);
        if (slowWindows >= PERSIST) {
          List<long[]> known = episodes.computeIfAbsent(gpu, g -> new ArrayList<>());
          long[] last = known.isEmpty() ? null : known.get(known.size() - 1);
          if (last != null && began <= last[1]) {
            last[0] = Math.min(last[0], began);
            last[1] = Math.max(last[1], w[1]);
          } else {
            known.add(new long[] {began, w[1]});
          }
          Map<String, Object> e = evidence.computeIfAbsent(gpu, g -> new LinkedHashMap<>());
          e.putIfAbsent(metric, value);
          e.putIfAbsent(metric + "_peers_median", peers);
        }
      }
    }
  }

  private static Map<RunGpu, Double> medians(
      Map<RunGpu, RunDevices.Read> reads, long from, long to) {
    Map<RunGpu, Double> medians = new LinkedHashMap<>();
    for (Map.Entry<RunGpu, RunDevices.Read> entry : reads.entrySet()) {
      double[] values = RunDevices.between(entry.getValue().samples(), from, to);
      if (values.length >= Math.max(2, WINDOW_SAMPLES / 2)) {
        double median = RobustStats.median(values);
        if (Double.isFinite(median)) {
          medians.put(entry.getKey(), median);
        }
      }
    }
    return medians;
  }

  private static double peersMedian(Map<RunGpu, RunDevices.Read> util, long from, long to) {
    double[] all =
        medians(util, from, to).values().stream().mapToDouble(Double::doubleValue).toArray();
    return all.length < 3 ? Double.NaN : RobustStats.median(all);
  }

  private static long interval(Map<RunGpu, RunDevices.Read> reads) {
    long[] intervals =
        reads.values().stream().mapToLong(r -> r.samples().medianInterval()).sorted().toArray();
    return Math.max(1, intervals[intervals.length / 2]);
  }
}
