package io.flightdeck.tsdb;

import java.util.TreeMap;

/**
 * Lets the compactor wait for queriers that began before a new block was published. A querier takes
 * the block list and reads the head later; once a block is published, the head data it holds may be
 * dropped only after every querier that could have missed the block has closed.
 */
final class ReaderEpochs {
  private final TreeMap<Long, Integer> active = new TreeMap<>();
  private long epoch;

  synchronized long enter() {
    active.merge(epoch, 1, Integer::sum);
    return epoch;
  }

  synchronized void exit(long readerEpoch) {
    active.computeIfPresent(readerEpoch, (e, n) -> n == 1 ? null : n - 1);
    notifyAll();
  }

  /** Starts a new epoch after publishing a block; returns it. */
  synchronized long advance() {
    return ++epoch;
  }

  /**
   * Waits until no querier of an epoch before {@code epoch} is open, or the timeout passes.
   *
   * @return false on timeout (a querier was left open)
   */
  synchronized boolean awaitBefore(long epoch, long timeoutMillis) throws InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (!active.isEmpty() && active.firstKey() < epoch) {
      long left = deadline - System.currentTimeMillis();
      if (left <= 0) {
        return false;
      }
      wait(left);
    }
    return true;
  }
}
