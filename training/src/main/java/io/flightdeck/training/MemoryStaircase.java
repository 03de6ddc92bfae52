package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code staircase}: memory that rises by a step at epoch boundaries and stays up, epoch after
 * epoch: a leak that ends in an OOM. For each memory series of the run (the GPUs' {@code
 * DCGM_FI_DEV_FB_USED}, the ranks' {@code gpu_memory_used_mb}, the hosts' used memory), the level
 * of each epoch is the median of its last half; the entry of an epoch is the median of its first
 * samples after {@link #SETTLE_SAMPLES}. A step is an entry above the previous epoch's level by
 * more than six robust deviations of that epoch and {@link #MIN_STEP} of its level, with the rise
 * inside the previous epoch under half of the step (so it happened at the boundary). {@link #STEPS}
 * steps in a row, within one segment of the step map, make a staircase. The projected time to OOM
 * is the memory left divided by the mean step, times the epoch's duration.
 *
 * <p>A range too short for {@link #STEPS} + 1 epoch boundaries (the detection loop's window, one
 * hour, against epochs of 40 minutes or more) but holding at least one looks further back for this
 * detector only: the epoch series over up to {@link #LOOKBACK_WINDOWS} detection windows, then the
 * memory series from the third-last boundary on. Its cost is bounded by that: three epochs of the
 * memory series, only while a boundary lies in the range.
 */
final class MemoryStaircase {
  static final int STEPS = 2;
  static final double MIN_STEP = 0.01;
  static final int SETTLE_SAMPLES = 1;
  static final int ENTRY_SAMPLES = 3;
  static final int MIN_EPOCH_SAMPLES = 6;
  static final int LOOKBACK_WINDOWS = 4;

  private MemoryStaircase() {}

  /** A memory series of the run and the total it cannot exceed (NaN when unknown). */
  private record Memory(
      String host, String gpu, String metric, SeriesReads.Samples used, double total) {}

  static List<RunEvent> detect(RunWindow window) {
    if (window.series() == null || window.series().of(TrainingRole.EPOCH).isEmpty()) {
      return List.of();
    }
    List<Long> boundaries = boundaries(window.series(), window.readFrom(), window.endMs());
    if (boundaries.size() >= STEPS + 1) {
      return detect(window, boundaries, window.startMs());
    }
    return boundaries.isEmpty() ? List.of() : lookingBack(window);
  }

  /** The staircases among the run's memory series, confirmed from {@code reportFromMs} on. */
  private static List<RunEvent> detect(RunWindow window, List<Long> boundaries, long reportFromMs) {
    List<RunEvent> found = new ArrayList<>();
    for (Memory memory : memories(window)) {
      RunEvent event = staircase(window, memory, boundaries, reportFromMs);
      if (event != null) {
        found.add(event);
      }
    }
    return Detections.merge(found, 0); // every series that stepped at the same boundary: one
  }

  /** The range holds too few boundaries: the last {@link #STEPS} + 1 of them, read further back. */
  private static List<RunEvent> lookingBack(RunWindow window) {
    long limit = window.endMs() - LOOKBACK_WINDOWS * window.options().detectionWindow().toMillis();
    if (window.storage() == null || limit >= window.readFrom()) {
      return List.of();
    }
    String label = window.options().runLabel();
    try (Querier longer = window.storage().querier(limit, window.endMs())) {
      RunSeries series =
          RunSeries.select(longer, label, Matcher.equal(label, window.run())).get(window.run());
      if (series == null || series.of(TrainingRole.EPOCH).isEmpty()) {
        return List.of();
      }
      List<Long> all = boundaries(series, limit, window.endMs());
      if (all.size() < STEPS + 1) {
        return List.of();
      }
      List<Long> last = all.subList(all.size() - (STEPS + 1), all.size());
      long from = last.get(0);
      RunWindow view =
          window.lookingBack(longer, series, RunEvents.stepMap(series, from, window.endMs()), from);
      return detect(view, last, window.startMs());
    }
  }

  /** The times the integer part of the epoch rose, within one segment each. */
  private static List<Long> boundaries(RunSeries series, long fromMs, long toMs) {
    Series epoch = series.of(TrainingRole.EPOCH).get(0);
    SeriesReads.Samples samples = SeriesReads.range(epoch, fromMs, toMs);
    List<Long> times = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      if (Math.floor(samples.values()[i]) > Math.floor(samples.values()[i - 1])) {
        times.add(samples.times()[i]);
      }
    }
    return times;
  }

  private static RunEvent staircase(
      RunWindow window, Memory memory, List<Long> boundaries, long reportFromMs) {
    SeriesReads.Samples used = memory.used();
    int steps = 0;
    double risen = 0;
    long firstStep = 0;
    for (int b = 1; b + 1 <= boundaries.size(); b++) {
      long prevStart = boundaries.get(b - 1);
      long boundary = boundaries.get(b);
      long nextEnd = b + 1 < boundaries.size() ? boundaries.get(b + 1) : window.endMs() + 1;
      double[] previous = RunDevices.between(used, prevStart, boundary);
      double[] next = RunDevices.between(used, boundary, nextEnd);
      boolean sameSegment =
          window.segmentAt(prevStart) == window.segmentAt(boundary)
              && window.segmentAt(boundary) == window.segmentAt(nextEnd - 1);
      if (!sameSegment
          || previous.length < MIN_EPOCH_SAMPLES
          || next.length < SETTLE_SAMPLES + ENTRY_SAMPLES) {
        steps = 0;
        risen = 0;
        continue;
      }
      int half = previous.length / 2;
      double level = RobustStats.median(previous, half, previous.length);
      double early = RobustStats.median(previous, 0, half);
      double sigma =
          RobustStats.MAD_TO_SIGMA * RobustStats.mad(previous, half, previous.length, level);
      double entry = RobustStats.median(next, SETTLE_SAMPLES, SETTLE_SAMPLES + ENTRY_SAMPLES);
      double step = entry - level;
      boolean isStep =
          step > 6 * sigma && step > MIN_STEP * Math.abs(level) && level - early < step / 2;
      if (isStep && b + 1 < boundaries.size()) {
        // A whole epoch followed: the step must have stayed (not an evaluation's brief peak).
        isStep = RobustStats.median(next, next.length / 2, next.length) - level > step / 2;
      }
      if (!isStep) {
        steps = 0;
        risen = 0;
        continue;
      }
      if (steps++ == 0) {
        firstStep = boundary;
      }
      risen += step;
      if (steps == STEPS) {
        long confirmed =
            used.times()[
                RunDevices.lowerBound(used.times(), boundary)
                    + Math.min(next.length, SETTLE_SAMPLES + ENTRY_SAMPLES)
                    - 1];
        if (confirmed < reportFromMs) {
          steps = 0;
          risen = 0;
          continue;
        }
        double perEpoch = risen / steps;
        long epochMs = boundary - prevStart;
        Map<String, Object> evidence =
            RunEvents.evidence(
                "series",
                memory.metric(),
                "step_per_epoch",
                perEpoch,
                "level",
                entry,
                "epoch_seconds",
                epochMs / 1000.0,
                "confirmed_at",
                confirmed / 1000.0);
        String oom = "";
        if (Double.isFinite(memory.total()) && memory.total() > entry) {
          double epochsLeft = (memory.total() - entry) / perEpoch;
          double seconds = epochsLeft * epochMs / 1000.0;
          evidence.put("total", memory.total());
          evidence.put("seconds_to_oom", seconds);
          oom = ", out of memory in about " + Math.round(seconds / 60) + " min";
        }
        return RunEvents.event(
            "staircase",
            firstStep,
            null,
            window.stepAt(firstStep),
            memory.host(),
            memory.gpu(),
            memory.metric() + " rises by " + LossSpikes.round(perEpoch) + " every epoch" + oom,
            Map.of(),
            evidence);
      }
    }
    return null;
  }

  private static List<Memory> memories(RunWindow window) {
    List<Memory> memories = new ArrayList<>();
    Map<RunGpu, RunDevices.Read> fb = RunDevices.gpus(window, "DCGM_FI_DEV_FB_USED");
    Map<RunGpu, RunDevices.Read> free = RunDevices.gpus(window, "DCGM_FI_DEV_FB_FREE");
    fb.forEach(
        (gpu, read) -> {
          RunDevices.Read f = free.get(gpu);
          double total =
              f == null ? Double.NaN : read.samples().lastValue() + f.samples().lastValue();
          memories.add(
              new Memory(gpu.host(), gpu.gpu(), "DCGM_FI_DEV_FB_USED", read.samples(), total));
        });
    Map<String, Double> totals = new LinkedHashMap<>();
    for (var entry :
        RunDevices.hosts(window, Matcher.equal(Labels.METRIC_NAME, "node_memory_MemTotal_bytes"))) {
      totals.put(entry.getKey(), entry.getValue().samples().lastValue());
    }
    for (var entry :
        RunDevices.hosts(
            window, Matcher.equal(Labels.METRIC_NAME, "node_memory_MemAvailable_bytes"))) {
      Double total = totals.get(entry.getKey());
      if (total == null) {
        continue;
      }
      SeriesReads.Samples available = entry.getValue().samples();
      double[] usedValues = new double[available.size()];
      for (int i = 0; i < usedValues.length; i++) {
        usedValues[i] = total - available.values()[i];
      }
      memories.add(
          new Memory(
              entry.getKey(),
              null,
              "node_memory_used_bytes",
              new SeriesReads.Samples(available.times(), usedValues),
              total));
    }
    for (var entry :
        RunDevices.hosts(
            window,
            Matcher.equal(Labels.METRIC_NAME, "gpu_memory_used_mb"),
            Matcher.equal(window.options().runLabel(), window.run()))) {
      Labels labels = entry.getValue().labels();
      memories.add(
          new Memory(
              entry.getKey(),
              RunHardware.gpuIndex(labels),
              "gpu_memory_used_mb",
              entry.getValue().samples(),
              rankTotal(window, labels)));
    }
    return memories;
  }

  /** {@code gpu_memory_total_mb} of the same rank and device, NaN when none. */
  private static double rankTotal(RunWindow window, Labels used) {
    List<Matcher> matchers = new ArrayList<>();
    matchers.add(Matcher.equal(Labels.METRIC_NAME, "gpu_memory_total_mb"));
    used.forEach(
        (name, value) -> {
          if (!name.equals(Labels.METRIC_NAME)) {
            matchers.add(Matcher.equal(name, value));
          }
        });
    var set = window.querier().select(false, matchers.toArray(Matcher[]::new));
    if (set.next()) {
      SeriesReads.Samples samples = SeriesReads.range(set.at(), window.readFrom(), window.endMs());
      if (!samples.isEmpty()) {
        return samples.lastValue();
      }
    }
    return Double.NaN;
  }
}
