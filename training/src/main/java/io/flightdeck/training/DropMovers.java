package io.flightdeck.training;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The top movers of each throughput drop, read once and read again only when the drop's window has
 * grown (or shrunk) by half of what was read: the movers rank every series of the run's hardware
 * (up to {@link ThroughputDrops#MOVERS_BUDGET_MS} of reading), and the detection loop reads a run
 * four times an evaluation interval, so an hour's drop would otherwise pay that at every pass. A
 * window that grows by half each time is read a handful of times in all. At most {@link #MAX_DROPS}
 * drops are kept, the least recently asked for going first. Thread-safe.
 */
final class DropMovers {
  static final int MAX_DROPS = 64;

  private record Drop(String run, long onsetMs) {}

  private record Read(long fromMs, long toMs, String movers) {}

  private final Map<Drop, Read> reads =
      new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Drop, Read> eldest) {
          return size() > MAX_DROPS;
        }
      };

  /**
   * The movers of the drop of {@code run} that began at {@code onsetMs} over {@code [fromMs,
   * toMs]}: those read before when that window was close enough, else {@code read}'s.
   */
  String of(String run, long onsetMs, long fromMs, long toMs, Supplier<String> read) {
    Drop drop = new Drop(run, onsetMs);
    Read before;
    synchronized (reads) {
      before = reads.get(drop);
    }
    if (before != null && closeEnough(before, toMs)) {
      return before.movers();
    }
    String movers = read.get();
    synchronized (reads) {
      reads.put(drop, new Read(fromMs, toMs, movers));
    }
    return movers;
  }

  /** Whether a window ending at {@code toMs} is within half of the window read. */
  private static boolean closeEnough(Read read, long toMs) {
    return 2 * Math.abs(toMs - read.toMs()) <= read.toMs() - read.fromMs();
  }
}
