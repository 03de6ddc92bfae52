package io.flightdeck.training;

import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import java.util.List;

/**
 * What the detectors of {@link RunEvents} read: the run's series and hardware, its step map, the
 * stalls already found, and the time range. The querier covers {@link RunEvents#LEAD_MS} before
 * {@code startMs}; detections before {@code startMs} are not reported.
 *
 * @param series the run's training series, null when it has none
 * @param stalls the stalls of the step map, {@code {from, to}} in ms
 * @param pauses the step map's pauses of at least {@link HungRanks#EARLY_INTERVALS} usual
 *     step-change intervals that are not stalls (yet), {@code {from, to}} in ms
 * @param intervalMs the usual sample interval of the run's training series (at least 1)
 * @param storage the store, for a detector that must look further back than the querier reaches
 *     ({@link MemoryStaircase}); null when there is none
 * @param dropMovers the throughput drops' movers already read
 */
record RunWindow(
    Querier querier,
    RunCatalogOptions options,
    String run,
    RunHardware hardware,
    RunSeries series,
    StepMap map,
    List<long[]> stalls,
    List<long[]> pauses,
    long intervalMs,
    long startMs,
    long endMs,
    Queryable storage,
    DropMovers dropMovers) {

  /** The first time read: before the range, to have a baseline as it begins. */
  long readFrom() {
    return startMs - RunEvents.LEAD_MS;
  }

  /**
   * The same run read from {@code fromMs} on ({@link #readFrom()} is {@code fromMs}) through a
   * querier that reaches that far, with its series and step map from there.
   */
  RunWindow lookingBack(Querier longer, RunSeries longerSeries, StepMap longerMap, long fromMs) {
    return new RunWindow(
        longer,
        options,
        run,
        hardware,
        longerSeries,
        longerMap,
        stalls,
        pauses,
        intervalMs,
        fromMs + RunEvents.LEAD_MS,
        endMs,
        storage,
        dropMovers);
  }

  /** Whether {@code [from, to]} overlaps a stall. */
  boolean inStall(long from, long to) {
    for (long[] stall : stalls) {
      if (from <= stall[1] && to >= stall[0]) {
        return true;
      }
    }
    return false;
  }

  /** Whether a restart began within {@code (t - withinMs, t]}. */
  boolean restartedWithin(long t, long withinMs) {
    List<StepMap.Segment> segments = map.segments();
    for (int s = 1; s < segments.size(); s++) {
      long began = segments.get(s).times()[0];
      if (began <= t && t - began < withinMs) {
        return true;
      }
    }
    return false;
  }

  /** The index of the step map segment {@code t} falls in, -1 before the first or between two. */
  int segmentAt(long t) {
    List<StepMap.Segment> segments = map.segments();
    for (int s = 0; s < segments.size(); s++) {
      StepMap.Segment segment = segments.get(s);
      long next = s + 1 < segments.size() ? segments.get(s + 1).times()[0] : Long.MAX_VALUE;
      if (t >= segment.times()[0] && t < next) {
        return s;
      }
    }
    return -1;
  }

  Double stepAt(long t) {
    return map.stepAt(t);
  }
}
