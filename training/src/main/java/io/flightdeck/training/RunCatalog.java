package io.flightdeck.training;

import io.flightdeck.model.Clock;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The training runs in a store, named by the run label, and what each is doing: status, step, pace
 * and ETA, last values, hardware, firing alerts; and per run its step map and events.
 *
 * <p>Cost: one index lookup for the runs' training series, one for the GPU inventory and one for
 * the alerts, then for each series only its first sample and a tail found by seeking from the end,
 * so a catalog of hundreds of runs reads a few samples per series. Thread-safe.
 */
public final class RunCatalog {
  private final Queryable storage;
  private final Clock clock;
  private final RunHParams hparams;
  private final RunCatalogOptions options;

  /** A step map asked for again within two seconds (same run and range) is read once. */
  private final RecentResults<StepMapKey, Optional<StepMap>> stepMaps =
      new RecentResults<>(2_000_000_000L);

  private record StepMapKey(String run, long startMs, long endMs) {}

  private final DropMovers dropMovers = new DropMovers();

  public RunCatalog(Queryable storage, Clock clock, RunHParams hparams, RunCatalogOptions options) {
    this.storage = storage;
    this.clock = clock;
    this.hparams = hparams;
    this.options = options;
  }

  RunCatalogOptions options() {
    return options;
  }

  /** The label that names runs. */
  public String runLabel() {
    return options.runLabel();
  }

  /**
   * Runs seen within the lookback whose name matches {@code regex} (fully anchored; null or empty
   * for all), most recently seen first.
   *
   * @throws IllegalArgumentException when {@code regex} is not a valid regular expression
   */
  public List<RunSummary> runs(String regex) {
    String pattern = regex == null || regex.isEmpty() ? ".+" : regex;
    Matcher runMatcher;
    try {
      runMatcher = Matcher.regex(options.runLabel(), pattern);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("invalid run regex: " + e.getMessage(), e);
    }
    List<RunSummary> runs = summaries(runMatcher);
    runs.sort(
        Comparator.comparingLong(RunSummary::lastSeenMs).reversed().thenComparing(RunSummary::run));
    return runs;
  }

  /** One run, empty when no series within the lookback carries its name. */
  public Optional<RunSummary> run(String name) {
    if (name == null || name.isEmpty()) {
      return Optional.empty();
    }
    return summaries(Matcher.equal(options.runLabel(), name)).stream().findFirst();
  }

  /**
   * The step map of a run between two times (ms), empty when the run is unknown within the lookback
   * or that range.
   */
  public Optional<StepMap> stepMap(String run, long startMs, long endMs) {
    return stepMaps.get(
        new StepMapKey(run, startMs, endMs), () -> readStepMap(run, startMs, endMs));
  }

  private Optional<StepMap> readStepMap(String run, long startMs, long endMs) {
    try (Querier querier = storage.querier(startMs, endMs)) {
      RunSeries series = RunSeries.select(querier, options.runLabel(), exact(run)).get(run);
      if (series == null) {
        return known(run) ? Optional.of(StepMap.EMPTY) : Optional.empty();
      }
      return Optional.of(RunEvents.stepMap(series, startMs, endMs));
    }
  }

  /** The events of a run between two times (ms), sorted by time; empty for an unknown run. */
  public Optional<List<RunEvent>> events(String run, long startMs, long endMs) {
    Optional<RunSummary> summary = run(run);
    if (summary.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(events(summary.get(), startMs, endMs));
  }

  /** The events of a run already judged, between two times (ms), sorted by time. */
  List<RunEvent> events(RunSummary summary, long startMs, long endMs) {
    String run = summary.run();
    RunHardware hardware = new RunHardware(summary.hosts(), summary.gpus());
    try (Querier querier = storage.querier(startMs - RunEvents.LEAD_MS, endMs)) {
      RunSeries series = RunSeries.select(querier, options.runLabel(), exact(run)).get(run);
      return new RunEvents(querier, storage, options, run, hardware, dropMovers)
          .collect(series, startMs, endMs);
    }
  }

  /**
   * The series of a run that moved with a target, best first, at most {@code limit}: the target's
   * values at each instant of {@code grid} (NaN where it has none), and the labels of the series it
   * was computed from (never candidates themselves). Reading stops at {@code deadlineNanos} ({@link
   * System#nanoTime()}). Empty for an unknown run.
   */
  public Optional<List<Mover>> movers(
      String run,
      CorrelationGrid grid,
      double[] target,
      List<io.flightdeck.model.Labels> targetSeries,
      int limit,
      long deadlineNanos) {
    Optional<RunSummary> summary = run(run);
    if (summary.isEmpty()) {
      return Optional.empty();
    }
    RunHardware hardware = new RunHardware(summary.get().hosts(), summary.get().gpus());
    try (Querier querier = storage.querier(grid.fromMs() - 600_000, grid.lastMs())) {
      return Optional.of(
          new RunCorrelation(querier, options, run, hardware, grid)
              .movers(target, targetSeries, limit, deadlineNanos));
    }
  }

  private List<RunSummary> summaries(Matcher runMatcher) {
    long now = clock.millis();
    long from = now - options.lookback().toMillis();
    List<RunSummary> summaries = new ArrayList<>();
    try (Querier querier = storage.querier(from, now)) {
      Map<String, RunSeries> runs = RunSeries.select(querier, options.runLabel(), runMatcher);
      if (runs.isEmpty()) {
        return summaries;
      }
      GpuInventory inventory = GpuInventory.read(querier);
      FiringAlerts alerts = FiringAlerts.read(querier, now, RunAssessment.ALERT_FRESH_MS);
      for (RunSeries series : runs.values()) {
        RunSummary summary =
            new RunAssessment(querier, options, now, hparams.declared(series.run()))
                .assess(series, inventory, alerts);
        if (summary != null) {
          summaries.add(summary);
        }
      }
    }
    return summaries;
  }

  private boolean known(String run) {
    return run(run).isPresent();
  }

  private Matcher exact(String run) {
    return Matcher.equal(options.runLabel(), run);
  }
}
