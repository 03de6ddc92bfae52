package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code starvation}: the data loader cannot keep up. On a run host, at {@link #PERSIST} CPU
 * scrapes in a row (the step rate read over {@link #RATE_INTERVALS} of them, or {@link #RATE_STEPS}
 * steps if longer): the host's run GPUs' mean utilisation is below {@link #UTIL_DROP} of its usual
 * level (the run's 75th percentile), the run's step rate below {@link #RATE_DROP} of its usual
 * level, and the host's CPUs busy (at least {@link #BUSY} of their time, {@link #IOWAIT} in iowait,
 * or {@link #BUSY_RISE} busier than their median). A slow network lowers utilisation and step rate
 * too, but leaves the CPUs as they were.
 */
final class Starvation {
  static final String CPU = "node_cpu_seconds_total";
  static final double UTIL_DROP = 0.6;
  static final double RATE_DROP = 0.7;
  static final double BUSY = 0.75;
  static final double IOWAIT = 0.2;
  static final double BUSY_RISE = 0.25;
  static final int PERSIST = 2;
  static final int RATE_INTERVALS = 2;
  static final int RATE_STEPS = 8;

  /** CPU scrapes a host needs before it is judged: its usual levels need a history. */
  static final int MIN_SCRAPES = 6;

  private Starvation() {}

  /** CPU time shares of one interval ending at a scrape. */
  private record Cpu(double busy, double iowait) {}

  static List<RunEvent> detect(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    Map<RunGpu, RunDevices.Read> util = RunDevices.gpus(window, HungRanks.UTIL);
    if (util.isEmpty() || window.map().segments().isEmpty()) {
      return found;
    }
    Map<String, TreeMap<Long, Cpu>> cpuByHost =
        cpuShares(RunDevices.hosts(window, Matcher.equal(Labels.METRIC_NAME, CPU)));
    for (Map.Entry<String, TreeMap<Long, Cpu>> host : cpuByHost.entrySet()) {
      List<RunDevices.Read> gpus = new ArrayList<>();
      util.forEach(
          (gpu, read) -> {
            if (gpu.host().equals(host.getKey())) {
              gpus.add(read);
            }
          });
      if (!gpus.isEmpty()) {
        found.addAll(ofHost(window, host.getKey(), host.getValue(), gpus));
      }
    }
    found.removeIf(e -> e.endMs() != null && e.endMs() < window.startMs());
    return Detections.merge(found, overlapMs(found));
  }

  /** Host episodes that begin within the first episode's span are one. */
  private static long overlapMs(List<RunEvent> found) {
    long longest = 0;
    for (RunEvent e : found) {
      if (e.endMs() != null) {
        longest = Math.max(longest, e.endMs() - e.timeMs());
      }
    }
    return Math.max(longest, 1);
  }

  private static List<RunEvent> ofHost(
      RunWindow window, String host, TreeMap<Long, Cpu> cpu, List<RunDevices.Read> gpus) {
    List<RunEvent> found = new ArrayList<>();
    long[] times = cpu.keySet().stream().mapToLong(Long::longValue).toArray();
    if (times.length < MIN_SCRAPES) {
      return found;
    }
    long interval = Math.max(1, (times[times.length - 1] - times[0]) / (times.length - 1));
    long span = rateSpan(window, times, interval);
    double[] utils = new double[times.length];
    double[] rates = new double[times.length];
    double[] busy = new double[times.length];
    for (int i = 0; i < times.length; i++) {
      long t = times[i];
      double sum = 0;
      int n = 0;
      for (RunDevices.Read gpu : gpus) {
        double v = RunDevices.valueAt(gpu.samples(), t, 3 * interval);
        if (Double.isFinite(v)) {
          sum += v;
          n++;
        }
      }
      utils[i] = n == 0 ? Double.NaN : sum / n;
      Double now = window.stepAt(t);
      Double before = window.stepAt(t - span);
      boolean judged =
          now != null
              && before != null
              && !window.inStall(t - span, t)
              && !window.restartedWithin(t, 2 * span)
              && window.segmentAt(t) >= 0;
      rates[i] = judged ? (now - before) * 1000.0 / span : Double.NaN;
      busy[i] = cpu.get(t).busy();
    }
    double usualUtil = RobustStats.quantile(utils, 0.75);
    double usualRate = RobustStats.quantile(rates, 0.75);
    double medianBusy = RobustStats.median(busy);
    if (!(usualUtil > 0) || !(usualRate > 0)) {
      return found;
    }
    int run = 0;
    long began = 0;
    RunEvent open = null;
    for (int i = 0; i < times.length; i++) {
      Cpu c = cpu.get(times[i]);
      boolean cpuBusy =
          c.busy() >= BUSY || c.iowait() >= IOWAIT || c.busy() >= medianBusy + BUSY_RISE;
      boolean starving =
          utils[i] < UTIL_DROP * usualUtil && rates[i] < RATE_DROP * usualRate && cpuBusy;
      if (!starving) {
        if (open != null) {
          found.set(found.size() - 1, open.withEnd(times[i]));
          open = null;
        }
        run = 0;
        continue;
      }
      if (run++ == 0) {
        began = times[i];
      }
      if (run == PERSIST) {
        open =
            RunEvents.event(
                "starvation",
                began,
                null,
                window.stepAt(began),
                host,
                null,
                "GPUs of " + host + " wait for data: CPUs " + percent(c.busy()) + " busy",
                Map.of(),
                RunEvents.evidence(
                    "gpu_utilization",
                    utils[i],
                    "usual_gpu_utilization",
                    usualUtil,
                    "steps_per_second",
                    rates[i],
                    "usual_steps_per_second",
                    usualRate,
                    "cpu_busy",
                    c.busy(),
                    "cpu_iowait",
                    c.iowait()));
        found.add(open);
      }
    }
    return found;
  }

  /**
   * The span over which the step rate is read: {@link #RATE_INTERVALS} CPU scrapes, or long enough
   * for {@link #RATE_STEPS} steps at the window's pace, so that a run of a few steps a scrape does
   * not read a missing step as a slowdown.
   */
  private static long rateSpan(RunWindow window, long[] times, long interval) {
    long span = RATE_INTERVALS * interval;
    Double first = window.stepAt(times[0]);
    Double last = window.stepAt(times[times.length - 1]);
    if (first != null && last != null && last > first) {
      double msPerStep = (times[times.length - 1] - times[0]) / (last - first);
      span = Math.max(span, (long) Math.ceil(RATE_STEPS * msPerStep));
    }
    return span;
  }

  private static String percent(double share) {
    return Math.round(share * 100) + "%";
  }

  /**
   * Per host and scrape, the shares of CPU time busy and in iowait since the previous scrape, from
   * the per-CPU, per-mode counters; an interval where a counter went back (a reboot) or that spans
   * a gap counts only the counters that did not.
   */
  private static Map<String, TreeMap<Long, Cpu>> cpuShares(
      List<Map.Entry<String, RunDevices.Read>> series) {
    Map<String, TreeMap<Long, double[]>> sums = new HashMap<>(); // {idle, iowait, total}
    for (Map.Entry<String, RunDevices.Read> entry : series) {
      String mode = entry.getValue().labels().get("mode");
      SeriesReads.Samples s = entry.getValue().samples();
      long usual = Math.max(1, s.medianInterval());
      TreeMap<Long, double[]> host = sums.computeIfAbsent(entry.getKey(), h -> new TreeMap<>());
      for (int i = 1; i < s.size(); i++) {
        double delta = s.values()[i] - s.values()[i - 1];
        if (delta < 0 || s.times()[i] - s.times()[i - 1] > 3 * usual) {
          continue; // a counter reset or a gap: no honest share for this interval
        }
        double[] acc = host.computeIfAbsent(s.times()[i], t -> new double[3]);
        if (mode.equals("idle")) {
          acc[0] += delta;
        } else if (mode.equals("iowait")) {
          acc[1] += delta;
        }
        acc[2] += delta;
      }
    }
    Map<String, TreeMap<Long, Cpu>> shares = new TreeMap<>();
    sums.forEach(
        (host, byTime) -> {
          TreeMap<Long, Cpu> out = new TreeMap<>();
          byTime.forEach(
              (t, acc) -> {
                if (acc[2] > 0) {
                  out.put(t, new Cpu(1 - acc[0] / acc[2], acc[1] / acc[2]));
                }
              });
          shares.put(host, out);
        });
    return shares;
  }
}
