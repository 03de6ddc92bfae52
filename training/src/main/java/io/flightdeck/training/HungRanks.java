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
 *
 * <p>A pause of the run's step of {@link #EARLY_INTERVALS} usual step-change intervals, not yet a
 * stall, is judged too, but only for a GPU that stopped (an XID, or idle and cold beside busy
 * peers), so that a hang is named within a few scrapes.
 *
 * <p>Without a stall of the run, a rank whose own step series stays at one step for longer than the
 * stall threshold while the run's step advances (ranks that do not wait for each other) is a hung
 * rank too, named by its host and GPU.
 */
final class HungRanks {
  static final String UTIL = "DCGM_FI_DEV_GPU_UTIL";
  static final String POWER = "DCGM_FI_DEV_POWER_USAGE";

  /** Utilisation points (0–100) by which a GPU must differ from its peers' median. */
  static final double UTIL_POINTS = 30;

  /** Fraction of the peers' median power by which a GPU must differ. */
  static final double POWER_FRACTION = 0.3;

  /**
   * A pause of the run's step this many usual step-change intervals long, counted from the last
   * sample of the step before, is judged before it is a stall: a GPU that stopped while its peers
   * spin is named at once. Where the step moves at every scrape, the first scrape that shows it
   * unmoved is such a pause.
   */
  static final int EARLY_INTERVALS = 2;

  /** Peers' median utilisation (%) that counts as busy, spinning in a collective. */
  static final double BUSY_UTIL = 50;

  private HungRanks() {}

  static List<RunEvent> detect(RunWindow window, List<RunEvent> faults) {
    List<RunEvent> found = stoppedRanks(window);
    if (window.hardware().gpus().size() < 2
        || (window.stalls().isEmpty() && window.pauses().isEmpty())) {
      return found;
    }
    Map<RunGpu, RunDevices.Read> util = RunDevices.gpus(window, UTIL);
    Map<RunGpu, RunDevices.Read> power = RunDevices.gpus(window, POWER);
    for (long[] stall : window.stalls()) {
      found.addAll(named(window, stall, faults, util, power, false));
    }
    for (long[] pause : window.pauses()) {
      found.addAll(named(window, pause, faults, util, power, true));
    }
    return found;
  }

  /**
   * The GPUs that hold up the run in one stall, or in a pause not yet a stall ({@code early}). In a
   * pause only a GPU that stopped is named: an XID or loss, or utilisation or power below its
   * peers' while the peers are busy (spinning in a collective); a GPU busier than its idle peers
   * (one rank writing a checkpoint) is not a hang.
   */
  private static List<RunEvent> named(
      RunWindow window,
      long[] span,
      List<RunEvent> faults,
      Map<RunGpu, RunDevices.Read> util,
      Map<RunGpu, RunDevices.Read> power,
      boolean early) {
    List<RunEvent> found = new ArrayList<>();
    long from = span[0];
    long to = span[1];
    if (to < window.startMs()) {
      return found;
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
      // Skip a stall's first quarter: the step stops moving before the GPUs settle. A pause is
      // judged from its first sample, as soon as it holds two: it may be one scrape long.
      long settled = early ? from : from + (to - from) / 4;
      if (early) {
        outliers(
            named,
            util,
            settled,
            to,
            UTIL,
            (median, v) -> median >= BUSY_UTIL && median - v > UTIL_POINTS);
        outliers(
            named,
            power,
            settled,
            to,
            POWER,
            (median, v) -> median - v > POWER_FRACTION * Math.abs(median));
      } else {
        outliers(named, util, settled, to, UTIL, (median, v) -> Math.abs(v - median) > UTIL_POINTS);
        outliers(
            named,
            power,
            settled,
            to,
            POWER,
            (median, v) -> Math.abs(v - median) > POWER_FRACTION * Math.abs(median));
      }
    }
    int most = Math.max(1, window.hardware().gpus().size() / 4);
    if (named.isEmpty() || named.size() > most) {
      return found;
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
    return found;
  }

  /** Ranks whose step stayed put for longer than the stall threshold while the run advanced. */
  private static List<RunEvent> stoppedRanks(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    List<io.flightdeck.storage.Series> ranks = window.series().of(TrainingRole.STEP);
    if (ranks.size() < 2) {
      return found;
    }
    for (io.flightdeck.storage.Series rank : ranks) {
      SeriesReads.Samples samples = SeriesReads.range(rank, window.readFrom(), window.endMs());
      List<Double> gaps = new ArrayList<>();
      int since = 0;
      for (int i = 1; i < samples.size(); i++) {
        if (samples.values()[i] != samples.values()[i - 1]) {
          gaps.add((double) (samples.times()[i] - samples.times()[since]));
          since = i;
        }
      }
      if (gaps.size() < 3) {
        continue;
      }
      double[] sorted = gaps.stream().mapToDouble(Double::doubleValue).sorted().toArray();
      long threshold =
          RunAssessment.stallThreshold(
              window.options(), Math.round(StepProgress.quantile(sorted, 0.5)));
      int from = 0;
      for (int i = 1; i <= samples.size(); i++) {
        boolean plateauEnds = i == samples.size() || samples.values()[i] != samples.values()[from];
        if (!plateauEnds) {
          continue;
        }
        long a = samples.times()[from];
        long b = samples.times()[i - 1];
        Double runAtStart = window.stepAt(a);
        Double runAtEnd = window.stepAt(b);
        boolean runAdvanced =
            runAtStart != null
                && runAtEnd != null
                && runAtEnd > samples.values()[from]
                && runAtEnd > runAtStart;
        if (b - a > threshold
            && runAdvanced
            && !window.inStall(a, b)
            && window.segmentAt(a) == window.segmentAt(b)
            && b >= window.startMs()) {
          String host = Hosts.of(rank.labels());
          String gpu = RunHardware.gpuIndex(rank.labels());
          found.add(
              RunEvents.event(
                  "hung_rank",
                  a,
                  i == samples.size() ? null : b,
                  window.stepAt(a),
                  host,
                  gpu,
                  "rank on " + host + (gpu == null ? "" : " GPU " + gpu) + " stopped stepping",
                  RunEvents.labels(rank.labels()),
                  RunEvents.evidence(
                      "rank_step",
                      samples.values()[from],
                      "run_step",
                      runAtEnd,
                      "seconds",
                      (b - a) / 1000.0,
                      "threshold_seconds",
                      threshold / 1000.0)));
        }
        from = i;
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
