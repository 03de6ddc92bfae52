package io.flightdeck.tsdb.head;

import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Commit sequence numbers that let a querier see exactly the commits completed before it started.
 * Each commit takes the next number before writing the WAL and releases it once its samples are in
 * memory; a querier's snapshot is the highest number below which every commit has completed.
 *
 * <p>The low watermark is the oldest snapshot any open querier or any future querier can have:
 * series forget the commit numbers of samples at or below it, since everyone sees those.
 */
final class Isolation {
  private final TreeSet<Long> inFlight = new TreeSet<>();
  private final TreeMap<Long, Integer> readers = new TreeMap<>();
  private long last;
  private volatile long lowWatermark;

  /** Starts a commit; call in WAL order so numbers follow the log. */
  synchronized long begin() {
    long seq = ++last;
    inFlight.add(seq);
    updateLowWatermark();
    return seq;
  }

  synchronized void end(long seq) {
    inFlight.remove(seq);
    updateLowWatermark();
    notifyAll();
  }

  /** Every commit numbered at or below the result has completed. */
  synchronized long snapshot() {
    return inFlight.isEmpty() ? last : inFlight.first() - 1;
  }

  /** Takes a snapshot for a querier, which must {@link #closeReader} it. */
  synchronized long openReader() {
    long snapshot = snapshot();
    readers.merge(snapshot, 1, Integer::sum);
    updateLowWatermark();
    return snapshot;
  }

  /** Registers a querier reading exactly the commits numbered up to {@code seq}. */
  synchronized void openReaderAt(long seq) {
    readers.merge(seq, 1, Integer::sum);
    updateLowWatermark();
  }

  synchronized void closeReader(long snapshot) {
    readers.computeIfPresent(snapshot, (s, n) -> n == 1 ? null : n - 1);
    updateLowWatermark();
  }

  long lowWatermark() {
    return lowWatermark;
  }

  private void updateLowWatermark() {
    long low = snapshot();
    if (!readers.isEmpty()) {
      low = Math.min(low, readers.firstKey());
    }
    lowWatermark = low;
  }

  synchronized long lastAssigned() {
    return last;
  }

  /** Waits until every commit numbered at or below {@code seq} has completed. */
  synchronized void awaitCompleted(long seq) throws InterruptedException {
    while (!inFlight.isEmpty() && inFlight.first() <= seq) {
      wait(100);
    }
  }
}
