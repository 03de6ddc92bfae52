package io.flightdeck.training;

import io.flightdeck.model.Clock;
import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.StorageException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the detectors in the background over the recent window of every running or stalled run, so
 * that each detection (1) is a series, {@code flightdeck_run_detection{run, kind, Hostname, gpu,
 * rank, title} 1}, appended to the store at each pass for the rule packs to alert on, and (2) is
 * ready when {@code /api/v1/runs/{run}/events} asks: {@link #events} answers from the pass's cache
 * when it covers the asked range, and computes on demand otherwise.
 *
 * <p>Timing: passes start {@link #PASSES_PER_INTERVAL} times an evaluation interval, each reading
 * every running run. A detection then waits at most a quarter of an interval for the pass after the
 * sample that shows it, not a whole one, so the bound (scrape + evaluation interval + 10 s)
 * holds in the worst phases of the samples too; the evaluation interval is left to the alert rules
 * that read the detections. A run is read whether or not its own series moved since the last pass:
 * the sample that shows a hang or a lost GPU is often its GPU's, and a run that crashed sends none.
 *
 * <p>Cost: one reading of a run covers the window only (default 1 h, {@code
 * --cockpit.detection-window}), one run after the other on one low-priority thread; a pass stops
 * starting runs once it has taken an interval (the others go first next time), and the next pass
 * waits at least three times as long as this one took, so the loop keeps below a quarter of one
 * core however many runs there are. Passes start a quarter interval apart, not after the last one
 * ended: a pass's own time is not added to the wait for new data. Each run's events accumulate
 * across passes (the old ones outside the window are kept), so a run watched since its start is
 * cached whole.
 */
public final class DetectionLoop implements AutoCloseable {
  /** The series of the active detections. */
  public static final String METRIC = "flightdeck_run_detection";

  /** The kinds the detectors find; the others are read from the run's series as they are. */
  static final Set<String> DETECTOR_KINDS =
      Set.of(
          "spike",
          "hung_rank",
          "straggler",
          "starvation",
          "staircase",
          "throughput_drop",
          "lr_rewarmup");

  private static final Logger log = LoggerFactory.getLogger(DetectionLoop.class);

  /**
   * A point event (a spike, a NaN) stays a series for this part of the window after the loop first
   * saw it (5 minutes of 1 h), so a compressed clock (the demo's shorter window) holds it as long.
   */
  private static final int HOLD_PARTS = 12;

  /**
   * An interval ending within this part of the window (90 s of 1 h) before the data's end is still
   * going on: an ongoing stall ends at its last sample, which may be a scrape behind the newest.
   */
  private static final int SLACK_PARTS = 40;

  /** Events closer than this to an event kept from an earlier pass are that event again. */
  private static final long SAME_EVENT_MS = 60_000;

  /** The next pass waits at least this many times as long as the last one took. */
  private static final int DUTY = 3;

  /** How many passes start in an evaluation interval, at most. */
  static final int PASSES_PER_INTERVAL = 4;

  private final RunCatalog catalog;
  private final Appendable sink;
  private final Clock clock;
  private final long windowMs;
  private volatile long intervalMs;
  private final ActiveDetections detections;
  private final Map<String, CachedEvents> cache = new ConcurrentHashMap<>();
  private final StoppedRunEvents stopped;
  private final Map<String, Set<Labels>> activeByRun = new HashMap<>();
  private final Map<String, Long> evaluatedAt = new HashMap<>();
  private Set<Labels> emitted = Set.of();

  /** The time from one pass's start to the next's. */
  private volatile long delayMs;

  private final java.util.concurrent.atomic.AtomicLong passes =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.DoubleAdder passSeconds =
      new java.util.concurrent.atomic.DoubleAdder();
  private volatile double lastPassSeconds;
  private volatile long lastPassEndedMs;
  private volatile int lastPassRuns;
  private ScheduledExecutorService executor;
  private java.util.concurrent.ScheduledFuture<?> next;

  /**
   * The events of a run as the passes found them.
   *
   * @param fromMs where the cached events begin
   * @param fromRunStart whether that is the run's first sample (any earlier start is covered too)
   * @param toMs the end of the last pass
   * @param settled whether the run left running and its last pass came after
   */
  private record CachedEvents(
      long fromMs, boolean fromRunStart, long toMs, List<RunEvent> events, boolean settled) {}

  /**
   * @param catalog the runs, and how far back each pass reads ({@link
   *     RunCatalogOptions#detectionWindow})
   * @param sink where the detection series are appended
   * @param interval the rules' evaluation interval: {@link #PASSES_PER_INTERVAL} passes start in
   *     one, at most
   */
  public DetectionLoop(RunCatalog catalog, Appendable sink, Clock clock, Duration interval) {
    requirePositive(interval);
    this.catalog = catalog;
    this.sink = sink;
    this.clock = clock;
    this.windowMs = catalog.options().detectionWindow().toMillis();
    this.intervalMs = interval.toMillis();
    this.delayMs = cadence(intervalMs);
    this.stopped = new StoppedRunEvents(clock);
    this.detections =
        new ActiveDetections(
            METRIC, catalog.runLabel(), windowMs / HOLD_PARTS, windowMs / SLACK_PARTS);
  }

  private static void requirePositive(Duration interval) {
    if (interval.toMillis() < 1) {
      throw new IllegalArgumentException(
          "the detection interval must be positive, got " + interval);
    }
  }

  /**
   * Follows a new evaluation interval (a reloaded configuration): the passes from now on start
   * {@link #PASSES_PER_INTERVAL} times in one, and a pass waiting longer than that is brought
   * forward.
   */
  public synchronized void setInterval(Duration interval) {
    requirePositive(interval);
    intervalMs = interval.toMillis();
    delayMs = cadence(intervalMs);
    if (next != null
        && !next.isDone()
        && next.getDelay(TimeUnit.MILLISECONDS) > delayMs
        && next.cancel(false)) {
      next = executor.schedule(this::passAndReschedule, delayMs, TimeUnit.MILLISECONDS);
    }
  }

  /** The evaluation interval the passes follow now. */
  Duration interval() {
    return Duration.ofMillis(intervalMs);
  }

  /** How many background passes have run since {@link #start}. */
  public long passes() {
    return passes.get();
  }

  /** Seconds the background passes have taken in all: their share of a core is its rate. */
  public double passSeconds() {
    return passSeconds.sum();
  }

  /** How long the last background pass took, in seconds; 0 before the first. */
  public double lastPassSeconds() {
    return lastPassSeconds;
  }

  /** When the last background pass ended, Unix ms; 0 before the first. */
  public long lastPassEndedMs() {
    return lastPassEndedMs;
  }

  /** How many runs the last background pass read. */
  public int lastPassRuns() {
    return lastPassRuns;
  }

  /** Starts the passes on a daemon thread of low priority; the first one at once. */
  public synchronized void start() {
    if (executor != null) {
      return;
    }
    executor =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "run-detections");
              t.setDaemon(true);
              t.setPriority(Thread.MIN_PRIORITY);
              return t;
            });
    executor.execute(this::passAndReschedule);
  }

  private void passAndReschedule() {
    long began = System.nanoTime();
    try {
      pass();
    } catch (RuntimeException e) {
      // A bad run or a store being closed must not end the loop; the next pass tries again.
      log.warn("run detection pass failed: {}", e.toString());
    }
    long tookNanos = System.nanoTime() - began;
    lastPassSeconds = tookNanos / 1e9;
    passSeconds.add(tookNanos / 1e9);
    lastPassEndedMs = clock.millis();
    passes.incrementAndGet();
    long tookMs = tookNanos / 1_000_000;
    synchronized (this) {
      delayMs = spacing(cadence(intervalMs), tookMs);
      if (executor != null && !executor.isShutdown()) {
        next = executor.schedule(this::passAndReschedule, delayMs - tookMs, TimeUnit.MILLISECONDS);
      }
    }
  }

  /** The time from one pass's start to the next's when passes are short. */
  static long cadence(long intervalMs) {
    return Math.max(1, intervalMs / PASSES_PER_INTERVAL);
  }

  /**
   * How long after a pass that took {@code tookMs} began the next one starts: the cadence, and at
   * least {@link #DUTY} times its length after it ended.
   */
  static long spacing(long cadenceMs, long tookMs) {
    return Math.max(cadenceMs, (DUTY + 1) * tookMs);
  }

  /** One pass over the running runs; the loop's thread (or a test) calls it. */
  void pass() {
    long began = System.nanoTime();
    long now = clock.millis();
    Map<String, RunSummary> live = new HashMap<>();
    for (RunSummary run : catalog.runs(null)) {
      if (run.status() == RunStatus.RUNNING || run.status() == RunStatus.STALLED) {
        live.put(run.run(), run);
      }
    }
    // Runs that stopped: one last pass over their end, then their series go stale.
    for (Map.Entry<String, CachedEvents> e : cache.entrySet()) {
      if (!live.containsKey(e.getKey()) && !e.getValue().settled()) {
        catalog.run(e.getKey()).ifPresent(run -> evaluate(run, now, true));
        activeByRun.remove(e.getKey());
        detections.forget(e.getKey());
      }
    }
    cache.entrySet().removeIf(e -> e.getValue().settled() && now - e.getValue().toMs() > windowMs);
    activeByRun.keySet().retainAll(live.keySet());
    evaluatedAt.keySet().retainAll(live.keySet());
    // The runs evaluated longest ago first, so a pass cut short reaches the others next time.
    List<RunSummary> order = new ArrayList<>(live.values());
    order.sort(Comparator.comparingLong(r -> evaluatedAt.getOrDefault(r.run(), 0L)));
    int read = 0;
    for (RunSummary run : order) {
      if (System.nanoTime() - began > intervalMs * 1_000_000) {
        break;
      }
      read++;
      List<RunEvent> events = evaluate(run, now, false);
      evaluatedAt.put(run.run(), now);
      long from = from(run, now);
      long settled = from == run.firstSeenMs() ? from : from + windowMs / 2;
      activeByRun.put(run.run(), detections.of(run.run(), events, settled, run.lastSeenMs(), now));
    }
    lastPassRuns = read;
    emit(now);
  }

  /** Reads one run's window, merges it into the cache and answers the window's events. */
  private List<RunEvent> evaluate(RunSummary run, long now, boolean last) {
    long from = from(run, now);
    List<RunEvent> fresh = catalog.events(run, from, now);
    cache.compute(
        run.run(),
        (r, before) ->
            before == null
                ? new CachedEvents(from, from == run.firstSeenMs(), now, fresh, last)
                : new CachedEvents(
                    Math.min(before.fromMs(), from),
                    before.fromRunStart(),
                    now,
                    merge(before.events(), fresh, from + windowMs / 2),
                    last));
    return fresh;
  }

  /** Where a pass at {@code now} starts reading a run. */
  private long from(RunSummary run, long now) {
    return Math.max(run.firstSeenMs(), now - windowMs);
  }

  /**
   * The earlier events, less those a fresh reading of the same time replaces, and the fresh ones.
   * An earlier event before {@code settledBefore} that the fresh reading does not show is kept: it
   * was found with more of its past in view than the window's start now gives.
   */
  private static List<RunEvent> merge(
      List<RunEvent> earlier, List<RunEvent> fresh, long settledBefore) {
    List<RunEvent> merged = new ArrayList<>();
    for (RunEvent old : earlier) {
      if (old.timeMs() < settledBefore && fresh.stream().noneMatch(f -> sameIncident(old, f))) {
        merged.add(old);
      }
    }
    merged.addAll(fresh);
    merged.sort(Comparator.comparingLong(RunEvent::timeMs).thenComparing(RunEvent::kind));
    return merged;
  }

  /**
   * Whether two events are one incident seen by two passes. A detector's title carries values that
   * move between passes; any other event is named by its title and labels (an alert's name and its
   * rank, a demo incident, an XID), and two of them that overlap on one host are two incidents.
   */
  static boolean sameIncident(RunEvent a, RunEvent b) {
    if (!a.kind().equals(b.kind())
        || !java.util.Objects.equals(a.host(), b.host())
        || !java.util.Objects.equals(a.gpu(), b.gpu())
        || !DETECTOR_KINDS.contains(a.kind())
            && !(java.util.Objects.equals(a.title(), b.title())
                && java.util.Objects.equals(a.labels(), b.labels()))) {
      return false;
    }
    if (Math.abs(a.timeMs() - b.timeMs()) <= SAME_EVENT_MS) {
      return true;
    }
    long aEnd = a.endMs() == null ? a.timeMs() : a.endMs();
    long bEnd = b.endMs() == null ? Long.MAX_VALUE : b.endMs();
    return b.timeMs() <= aEnd && bEnd >= a.timeMs();
  }

  /** Each active detection's sample at {@code now}; a staleness marker for those that ended. */
  private void emit(long now) {
    Set<Labels> current = new LinkedHashSet<>();
    activeByRun.values().forEach(current::addAll);
    if (current.isEmpty() && emitted.isEmpty()) {
      return;
    }
    Appender appender = sink.appender();
    try {
      for (Labels labels : current) {
        append(appender, labels, now, 1);
      }
      for (Labels labels : emitted) {
        if (!current.contains(labels)) {
          append(appender, labels, now, StaleMarker.VALUE);
        }
      }
      appender.commit();
      emitted = current;
    } catch (StorageException e) {
      appender.rollback();
      log.warn("run detections not stored: {}", e.toString());
    }
  }

  /** One sample; one refused (a series limit) leaves the others. */
  private static void append(Appender appender, Labels labels, long now, double value) {
    try {
      appender.append(0, labels, now, value);
    } catch (SampleRejectedException e) {
      log.debug("run detection {} refused: {}", labels, e.getMessage());
    }
  }

  /**
   * The events of a run between two times (ms), sorted by time: from the passes' cache when it
   * covers the range, else computed now; empty for an unknown run. A range computed now that
   * reaches back before the cache and up to its end is kept in the cache, so the whole run is
   * cached after the first such request. A run that stopped before the passes watched it (a
   * finished run opened after a restart) is read whole once and kept ({@link StoppedRunEvents}).
   */
  public Optional<List<RunEvent>> events(String run, long startMs, long endMs) {
    CachedEvents cached = cache.get(run);
    if (covers(cached, startMs, endMs)) {
      return Optional.of(RunEvent.overlapping(cached.events(), startMs, endMs));
    }
    Optional<RunSummary> summary = catalog.run(run);
    if (summary.isEmpty()) {
      return Optional.empty();
    }
    if (StoppedRunEvents.stopped(summary.get())) {
      return Optional.of(
          stopped.events(
              summary.get(),
              startMs,
              endMs,
              r -> catalog.events(r, r.firstSeenMs(), Math.max(r.lastSeenMs(), endMs))));
    }
    List<RunEvent> computed = catalog.events(summary.get(), startMs, endMs);
    if (cached != null && startMs < cached.fromMs() && endMs >= cached.toMs()) {
      // Only the older part is taken: the cache's own window is read the same way each pass.
      cache.computeIfPresent(
          run,
          (r, c) -> {
            List<RunEvent> older = computed.stream().filter(e -> e.timeMs() < c.fromMs()).toList();
            List<RunEvent> all = new ArrayList<>(older);
            all.addAll(c.events());
            return new CachedEvents(startMs, false, c.toMs(), all, c.settled());
          });
    }
    return Optional.of(computed);
  }

  /** Whether {@link #events} answers this range from the cache. */
  boolean covers(String run, long startMs, long endMs) {
    return covers(cache.get(run), startMs, endMs);
  }

  /**
   * A running run's cache covers up to two intervals past its last pass (a pass cut short reaches
   * it at the next); a run that stopped (its last pass came after) any end, since a run that
   * resumes is read again at the next pass.
   */
  private boolean covers(CachedEvents cached, long startMs, long endMs) {
    return cached != null
        && (cached.fromRunStart() || startMs >= cached.fromMs())
        && (cached.settled() || endMs <= cached.toMs() + 2 * Math.max(intervalMs, delayMs))
        && endMs >= cached.fromMs();
  }

  @Override
  public synchronized void close() {
    if (executor != null) {
      executor.shutdownNow();
      try {
        executor.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
