package io.flightdeck.training;

import io.flightdeck.model.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The whole events of runs that stopped (finished or crashed), kept for the run pages opened after
 * the detection loop stopped watching them: reading every rank of a 64-GPU day takes about 2 s,
 * which every load of such a page paid before. An entry is used while the run's last sample is the
 * one it was read with (a run that resumes is read again) and for at most {@link #TTL_MS}, so that
 * alerts and faults that end after the run still reach its events. At most {@link #RUNS} runs, the
 * least recently asked for leave first. Thread-safe.
 */
final class StoppedRunEvents {
  static final int RUNS = 16;
  static final long TTL_MS = 5 * 60_000;

  private final Clock clock;
  private final Map<String, Entry> entries = new LinkedHashMap<>(RUNS, 0.75f, true);

  private record Entry(long lastSeenMs, long readAtMs, List<RunEvent> events) {}

  StoppedRunEvents(Clock clock) {
    this.clock = clock;
  }

  /** Whether a run of this status is kept here rather than by the loop's passes. */
  static boolean stopped(RunSummary run) {
    return run.status() == RunStatus.FINISHED || run.status() == RunStatus.CRASHED;
  }

  /**
   * The run's events between two times (ms): from the entry when it is still good, else read over
   * the whole run by {@code readWholeRun} (its first sample to its last) and kept.
   */
  List<RunEvent> events(
      RunSummary run, long startMs, long endMs, Function<RunSummary, List<RunEvent>> readWholeRun) {
    long now = clock.millis();
    Entry entry;
    synchronized (this) {
      entry = entries.get(run.run());
    }
    if (entry == null
        || entry.lastSeenMs() != run.lastSeenMs()
        || now - entry.readAtMs() > TTL_MS) {
      // Read outside the lock: two pages asking at once read twice rather than wait on each other.
      entry = new Entry(run.lastSeenMs(), now, List.copyOf(readWholeRun.apply(run)));
      synchronized (this) {
        entries.put(run.run(), entry);
        if (entries.size() > RUNS) {
          entries.remove(entries.keySet().iterator().next());
        }
      }
    }
    return RunEvent.overlapping(entry.events(), startMs, endMs);
  }
}
