package io.flightdeck.training;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/** Judges one run at one instant: the rules of {@link RunStatus}, pace, ETA and last values. */
final class RunAssessment {
  /** An alert is firing when its last live sample is at most this old (the query lookback). */
  static final long ALERT_FRESH_MS = 5 * 60_000;

  /** The first window searched back from now for a series' last sample; it grows from there. */
  private static final long TAIL_WINDOW_MS = 5 * 60_000;

  /** Enough distinct steps in a tail to measure a pace and see when the step last moved. */
  private static final int DISTINCT_STEPS_WANTED = StepProgress.MIN_INTERVALS + 1;

  /** The most the time lost so far stretches an ETA (a run that lost three quarters of it). */
  static final double MAX_LOST_TIME_FACTOR = 4;

  private static final String SUCCESS = "STATUS_SUCCESS";
  private static final Set<String> FAILED = Set.of("STATUS_FAILURE", "STATUS_ABORTED");

  private final Querier querier;
  private final RunCatalogOptions options;
  private final long now;
  private final RunHParams.Declared declared;

  RunAssessment(
      Querier querier, RunCatalogOptions options, long now, RunHParams.Declared declared) {
    this.querier = querier;
    this.options = options;
    this.now = now;
    this.declared = declared;
  }

  /** The run's summary, or null when none of its series has a sample in the lookback. */
  RunSummary assess(RunSeries series, GpuInventory inventory, FiringAlerts alerts) {
    long notBefore = now - options.lookback().toMillis();
    long firstSeen = Long.MAX_VALUE;
    long lastSeen = Long.MIN_VALUE;
    List<Series> seenBy = series.isEmpty() ? anySeries(series.run()) : series.all();
    for (Series s : seenBy) {
      firstSeen = Math.min(firstSeen, SeriesReads.firstTime(s));
      SeriesReads.Samples tail = SeriesReads.tail(s, now, TAIL_WINDOW_MS, 1, notBefore);
      if (!tail.isEmpty()) {
        lastSeen = Math.max(lastSeen, tail.lastTime());
      }
    }
    if (firstSeen == Long.MAX_VALUE || lastSeen == Long.MIN_VALUE) {
      return null;
    }

    List<SeriesReads.Samples> stepTails = new ArrayList<>();
    long sampleInterval = 0;
    for (Series s : series.of(TrainingRole.STEP)) {
      SeriesReads.Samples tail = stepTail(s, notBefore);
      stepTails.add(tail);
      sampleInterval = Math.max(sampleInterval, tail.medianInterval());
    }
    StepProgress progress =
        StepProgress.of(
            StepMapBuilder.build(stepTails, firstSeen), options.rateWindow().toMillis());
    Double step = progress == null ? null : progress.step();
    Double maxSteps = last(series, TrainingRole.MAX_STEPS, notBefore);
    if (maxSteps == null) {
      maxSteps = declared.maxSteps();
    }

    boolean ended = !series.of(TrainingRole.END_SUMMARY).isEmpty();
    RunStatus status = status(progress, step, maxSteps, ended, lastSeen, sampleInterval);
    Double rate = progress == null ? null : progress.rate();
    Double pace = progress == null ? null : progress.pace();
    Double eta = null;
    Double etaLow = null;
    Double etaHigh = null;
    if (status == RunStatus.FINISHED) {
      eta = etaLow = etaHigh = 0.0;
    } else if (status == RunStatus.RUNNING && maxSteps != null && step != null && pace != null) {
      LostTime lost =
          LostTime.of(
              series.of(TrainingRole.STEP),
              notBefore,
              now,
              pace,
              stallThreshold(options, progress.medianChangeIntervalMs()),
              progress.medianChangeIntervalMs());
      EtaEstimate estimate =
          EtaEstimate.of(progress, lost, step, Math.max(0, maxSteps - step), MAX_LOST_TIME_FACTOR);
      if (estimate != null) {
        eta = estimate.etaSeconds();
        etaLow = estimate.lowSeconds();
        etaHigh = estimate.highSeconds();
      }
    }

    RunHardware hardware =
        RunHardware.of(series.run(), options.runLabel(), series.labels(), inventory);
    return new RunSummary(
        series.run(),
        status,
        firstSeen,
        lastSeen,
        step,
        maxSteps,
        last(series, TrainingRole.EPOCH, notBefore),
        rate,
        eta,
        etaLow,
        etaHigh,
        last(series, TrainingRole.LOSS, notBefore),
        last(series, TrainingRole.SAMPLES_PER_SECOND, notBefore),
        last(series, TrainingRole.LEARNING_RATE, notBefore),
        selector(series.of(TrainingRole.LOSS)),
        selector(series.of(TrainingRole.STEP)),
        hardware.gpus(),
        hardware.hosts(),
        alerts.of(series.run(), options.runLabel(), hardware),
        sources(series));
  }

  private RunStatus status(
      StepProgress progress,
      Double step,
      Double maxSteps,
      boolean ended,
      long lastSeen,
      long sampleInterval) {
    boolean reachedEnd = maxSteps != null && step != null && step >= maxSteps;
    if (reachedEnd || ended || declared.status().equals(SUCCESS)) {
      return RunStatus.FINISHED;
    }
    long silenceLimit =
        Math.max(options.silence() * sampleInterval, options.silenceFloor().toMillis());
    if (FAILED.contains(declared.status()) || now - lastSeen > silenceLimit) {
      return RunStatus.CRASHED;
    }
    if (progress != null
        && now - progress.lastChangeMs()
            > stallThreshold(options, progress.medianChangeIntervalMs())) {
      return RunStatus.STALLED;
    }
    return RunStatus.RUNNING;
  }

  /** A pause longer than this is a stall: N usual step-change intervals, at least the floor. */
  static long stallThreshold(RunCatalogOptions options, long medianChangeIntervalMs) {
    return Math.max(
        options.stallFactor() * medianChangeIntervalMs, options.stallFloor().toMillis());
  }

  /**
   * The step series' tail: the trend window at least ({@link StepProgress#TREND_WINDOWS} rate
   * windows), widened until it holds enough distinct steps to measure a pace and to see when the
   * step last moved, however long the run has been stuck.
   */
  private SeriesReads.Samples stepTail(Series series, long notBefore) {
    long span = StepProgress.TREND_WINDOWS * options.rateWindow().toMillis();
    while (true) {
      long from = Math.max(notBefore, now - span);
      SeriesReads.Samples tail = SeriesReads.range(series, from, now);
      if (from <= notBefore || distinct(tail) >= DISTINCT_STEPS_WANTED) {
        return tail;
      }
      span *= 4;
    }
  }

  private static int distinct(SeriesReads.Samples samples) {
    int changes = 0;
    for (int i = 0; i < samples.size(); i++) {
      if (i == 0 || samples.values()[i] != samples.values()[i - 1]) {
        changes++;
      }
    }
    return changes;
  }

  /** The latest value among a role's series, null when none. */
  private Double last(RunSeries series, TrainingRole role, long notBefore) {
    long latest = Long.MIN_VALUE;
    Double value = null;
    for (Series s : series.of(role)) {
      SeriesReads.Samples tail = SeriesReads.tail(s, now, TAIL_WINDOW_MS, 1, notBefore);
      if (!tail.isEmpty() && tail.lastTime() > latest) {
        latest = tail.lastTime();
        value = tail.lastValue();
      }
    }
    return value;
  }

  private List<Series> anySeries(String run) {
    List<Series> all = new ArrayList<>();
    SeriesSet set =
        querier.select(false, io.flightdeck.model.Matcher.equal(options.runLabel(), run));
    while (set.next()) {
      all.add(set.at());
    }
    return all;
  }

  /** {@code name{run="x",tag="y"}}: the series' name, run label and TensorBoard tag. */
  private String selector(List<Series> series) {
    if (series.isEmpty()) {
      return null;
    }
    Labels labels = series.get(0).labels();
    StringBuilder out = new StringBuilder(labels.metricName()).append('{');
    out.append(options.runLabel()).append('=').append(promqlString(labels.get(options.runLabel())));
    if (labels.has("tag")) {
      out.append(",tag=").append(promqlString(labels.get("tag")));
    }
    return out.append('}').toString();
  }

  static String promqlString(String value) {
    return "\"" + value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n") + "\"";
  }

  private static List<String> sources(RunSeries series) {
    Set<String> sources = new TreeSet<>();
    for (Labels labels : series.labels()) {
      if (labels.metricName().startsWith("flightdeck:")) {
        continue; // recorded by rules from the others
      }
      if (labels.metricName().startsWith("tensorboard_")) {
        sources.add("tensorboard");
      } else if (labels.has("instance")) {
        sources.add("scrape");
      } else {
        sources.add("push");
      }
    }
    return List.copyOf(sources);
  }
}
