package io.flightdeck.tsdb.head;

import java.util.TreeSet;

/**
 * Commit sequence numbers that let a querier see exactly the commits completed before it started.
 * Each commit takes the next number before writing the WAL and releases it once its samples are in
 * memory; a querier's snapshot is the highest number below which every commit has completed.
 */
final class Isolation {
  private final TreeSet<Long> inFlight = new TreeSet<>();
  private long last;

  /** Starts a commit; call in WAL order so numbers follow the log. */
  synchronized long begin() {
    long seq = ++last;
    inFlight.add(seq);
    return seq;
  }

  synchronized void end(long seq) {
    inFlight.remove(seq);
    notifyAll();
  }

  /** Every commit numbered at or below the result has completed. */
  synchronized long snapshot() {
    return inFlight.isEmpty() ? last : inFlight.first() - 1;
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
