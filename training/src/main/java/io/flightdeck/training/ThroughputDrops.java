package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * {@code throughput_drop}: the run's samples/s (the median over its ranks of their latest samples)
 * below {@link #DROP} of its own baseline, the median of the last {@link #BASELINE} judged samples
 * of the first rank outside any drop, with a quarter of the ranks ({@link #CONFIRMING}) below it in
 * both of their last two samples ({@link RankLevels}); it ends once half the ranks are above {@link
 * #RECOVERED} of that baseline and a quarter in both of their last two. Samples in a stall (its own
 * event), within {@link #SETTLE} samples after a restart or a gap, and before the baseline holds
 * {@link #MIN_BASELINE} samples are not judged. A drop that recurs within {@link #BASELINE} samples
 * of the last one's end extends it (a link saturated four minutes in five is one event). Each
 * drop's evidence names the run's top {@link #MOVERS} movers around its onset ({@link
 * RunCorrelation}, at most {@link #MOVERS_BUDGET_MS} of reading, kept by {@link DropMovers}).
 */
final class ThroughputDrops {
  static final double DROP = 0.7;
  static final double RECOVERED = 0.85;
  static final int BASELINE = 60;
  static final int MIN_BASELINE = 20;
  static final int SETTLE = 10;
  static final int GAP_INTERVALS = 5;
  static final int MOVERS = 5;
  static final long MOVERS_BUDGET_MS = 500;
  static final int JUDGED_PER_INTERVAL = 8;

  /** The share of the ranks that must have shown a drop, or its end, in two samples each. */
  static final double CONFIRMING = 0.25;

  /** Samples before the onset and the most after it that the movers' window spans. */
  private static final int MOVERS_BEFORE = 10;

  private static final int MOVERS_AFTER = 120;

  private ThroughputDrops() {}

  static List<RunEvent> detect(RunWindow window) {
    List<RunEvent> found = new ArrayList<>();
    if (window.series() == null) {
      return found;
    }
    List<SeriesReads.Samples> ranks = new ArrayList<>();
    for (Series series : window.series().of(TrainingRole.SAMPLES_PER_SECOND)) {
      SeriesReads.Samples samples = SeriesReads.range(series, window.readFrom(), window.endMs());
      if (!samples.isEmpty()) {
        ranks.add(samples);
      }
    }
    if (ranks.isEmpty()) {
      return found;
    }
    SeriesReads.Samples reference = ranks.get(0);
    long usual = Math.max(1, reference.medianInterval());
    RankLevels levels = new RankLevels(ranks, 2 * usual);
    double[] history = new double[BASELINE];
    int held = 0;
    int next = 0;
    int settling = SETTLE;
    int ref = 0;
    long lastTime = Long.MIN_VALUE;
    long belowSince = Long.MIN_VALUE;
    long aboveSince = Long.MIN_VALUE;
    RunEvent open = null;
    double baseline = Double.NaN;
    double frozenBaseline = Double.NaN;
    int sinceEnd = Integer.MAX_VALUE;
    // Judged at every rank's sample, not only the first rank's: ranks scraped at spread phases
    // show a drop one after the other, and the first of them have confirmed it with two samples
    // each up to a scrape before the first rank has (bench/detectors.md, "The real demo").
    // At most JUDGED_PER_INTERVAL times a usual interval besides the first rank's samples and the
    // newest time: 64 ranks at spread phases would otherwise be judged 64 times a scrape.
    long[] times = levels.times();
    long minGap = Math.max(1, usual / JUDGED_PER_INTERVAL);
    long judgedAt = Long.MIN_VALUE;
    for (int k = 0; k < times.length; k++) {
      long t = times[k];
      boolean atReference = ref < reference.size() && reference.times()[ref] == t;
      if (!atReference && k < times.length - 1 && t - judgedAt < minGap) {
        continue;
      }
      judgedAt = t;
      levels.advanceTo(t);
      if (atReference) {
        ref++;
        boolean gap = lastTime != Long.MIN_VALUE && t - lastTime > GAP_INTERVALS * usual;
        lastTime = t;
        if (gap || window.restartedWithin(t, usual)) {
          settling = SETTLE;
        }
      }
      double latest = levels.medianOfLatest();
      if (settling > 0 || window.inStall(t, t) || !Double.isFinite(latest)) {
        if (atReference) {
          settling = Math.max(0, settling - 1);
        }
        belowSince = Long.MIN_VALUE;
        continue;
      }
      if (open == null) {
        if (atReference) {
          sinceEnd = sinceEnd == Integer.MAX_VALUE ? sinceEnd : sinceEnd + 1;
          baseline = held >= MIN_BASELINE ? RobustStats.median(history, 0, held) : Double.NaN;
        }
        boolean judged = Double.isFinite(baseline) && baseline > 0;
        if (judged && latest < DROP * baseline) {
          belowSince = belowSince == Long.MIN_VALUE ? t : belowSince;
        } else {
          belowSince = Long.MIN_VALUE;
        }
        // A drop when half the ranks show it and a quarter have in both of their last two
        // samples: one scrape's dip (a checkpoint, an evaluation) is one low sample per rank and
        // never one. In data-parallel training every rank slows together, so the ranks scraped
        // first confirm it for all, about a quarter of a scrape after their second sample.
        if (belowSince != Long.MIN_VALUE && levels.higherOfLastTwo(CONFIRMING) < DROP * baseline) {
          open = drop(window, found, belowSince, baseline, latest, sinceEnd);
          frozenBaseline = baseline;
          aboveSince = Long.MIN_VALUE;
          continue;
        }
        if (atReference && belowSince == Long.MIN_VALUE) {
          history[next] = latest;
          next = (next + 1) % BASELINE;
          held = Math.min(BASELINE, held + 1);
        }
      } else {
        if (latest >= RECOVERED * frozenBaseline) {
          aboveSince = aboveSince == Long.MIN_VALUE ? t : aboveSince;
        } else {
          aboveSince = Long.MIN_VALUE;
        }
        if (aboveSince != Long.MIN_VALUE
            && levels.lowerOfLastTwo(1 - CONFIRMING) >= RECOVERED * frozenBaseline) {
          found.set(found.size() - 1, found.get(found.size() - 1).withEnd(aboveSince));
          open = null;
          sinceEnd = 0;
          belowSince = Long.MIN_VALUE;
        }
      }
    }
    found.removeIf(e -> e.endMs() != null && e.endMs() < window.startMs());
    List<RunEvent> explained = new ArrayList<>();
    for (RunEvent drop : found) {
      explained.add(withMovers(window, drop, ranks, usual));
    }
    return explained;
  }

  /** The drop with its top movers, as {@code name{labels} (correlation)} separated by "; ". */
  private static RunEvent withMovers(
      RunWindow window, RunEvent drop, List<SeriesReads.Samples> ranks, long usual) {
    long from = drop.timeMs() - MOVERS_BEFORE * usual;
    long to =
        Math.min(
            drop.endMs() == null ? window.endMs() : drop.endMs(),
            drop.timeMs() + MOVERS_AFTER * usual);
    if (to <= from) {
      return drop;
    }
    String movers =
        window
            .dropMovers()
            .of(
                window.run(),
                drop.timeMs(),
                from,
                to,
                () -> readMovers(window, ranks, usual, from, to));
    if (movers.isEmpty()) {
      return drop;
    }
    Map<String, Object> evidence = new java.util.LinkedHashMap<>(drop.evidence());
    evidence.put("movers", movers);
    return new RunEvent(
        drop.kind(),
        drop.timeMs(),
        drop.endMs(),
        drop.step(),
        drop.host(),
        drop.gpu(),
        drop.title(),
        drop.labels(),
        evidence);
  }

  /** The top movers with the run's samples/s over {@code [from, to]}; empty when none. */
  private static String readMovers(
      RunWindow window, List<SeriesReads.Samples> ranks, long usual, long from, long to) {
    CorrelationGrid grid = CorrelationGrid.of(from, to);
    double[] target = new double[grid.points()];
    for (int k = 0; k < target.length; k++) {
      target[k] = combined(ranks, grid.time(k), 2 * usual);
    }
    List<io.flightdeck.model.Labels> own = new ArrayList<>();
    window.series().of(TrainingRole.SAMPLES_PER_SECOND).forEach(s -> own.add(s.labels()));
    List<Mover> movers =
        new RunCorrelation(
                window.querier(), window.options(), window.run(), window.hardware(), grid)
            .movers(target, own, MOVERS, System.nanoTime() + MOVERS_BUDGET_MS * 1_000_000);
    StringBuilder text = new StringBuilder();
    for (Mover mover : movers) {
      if (!text.isEmpty()) {
        text.append("; ");
      }
      Map<String, String> labels = new java.util.TreeMap<>(mover.metric());
      String name = labels.remove(io.flightdeck.model.Labels.METRIC_NAME);
      text.append(name)
          .append(labels)
          .append(" (")
          .append(LossSpikes.round(mover.correlation()))
          .append(')');
    }
    return text.toString();
  }

  /** A new drop, or the last one reopened when it ended less than a baseline ago. */
  private static RunEvent drop(
      RunWindow window,
      List<RunEvent> found,
      long began,
      double baseline,
      double value,
      int sinceEnd) {
    if (!found.isEmpty() && sinceEnd < BASELINE) {
      RunEvent last = found.remove(found.size() - 1).withEnd(null);
      found.add(last);
      return last;
    }
    RunEvent event =
        RunEvents.event(
            "throughput_drop",
            began,
            null,
            window.stepAt(began),
            null,
            null,
            "samples/s fell to "
                + LossSpikes.round(value)
                + " from a baseline of "
                + LossSpikes.round(baseline),
            Map.of(),
            RunEvents.evidence(
                "samples_per_second", value, "baseline", baseline, "ratio", value / baseline));
    found.add(event);
    return event;
  }

  /** The median over the ranks of their last value at {@code t}, none older than {@code maxAge}. */
  private static double combined(List<SeriesReads.Samples> ranks, long t, long maxAge) {
    double[] values = new double[ranks.size()];
    for (int r = 0; r < values.length; r++) {
      values[r] = RunDevices.valueAt(ranks.get(r), t, maxAge);
    }
    return RobustStats.median(values);
  }
}
