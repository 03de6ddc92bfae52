package io.flightdeck.bench;

import java.util.Arrays;

/**
 * Keeps concurrent senders within a few slices of each other. Each sender owns some shards and
 * sends them in time order, so per-series order holds without a barrier per slice; the bounded lead
 * keeps every shard's samples within a receiver's head window (Prometheus rejects samples older
 * than an hour behind its newest one).
 */
final class SliceGate {

  private final int maxLead;
  private final int[] completed;
  private boolean aborted;

  /**
   * @param senders number of senders, numbered from 0
   * @param maxLead how many slices a sender may start beyond the slowest one's completed slices
   */
  SliceGate(int senders, int maxLead) {
    this.maxLead = maxLead;
    this.completed = new int[senders];
  }

  /** Blocks until {@code slice} is within the lead of every sender's progress. */
  synchronized void awaitTurn(int slice) throws InterruptedException {
    while (!aborted && slice >= Arrays.stream(completed).min().orElseThrow() + maxLead) {
      wait();
    }
  }

  /** Records that {@code sender} has sent every slice before {@code slicesDone}. */
  synchronized void advance(int sender, int slicesDone) {
    completed[sender] = slicesDone;
    notifyAll();
  }

  /** Releases every waiting sender after a failure, so they can stop. */
  synchronized void abort() {
    aborted = true;
    notifyAll();
  }
}
