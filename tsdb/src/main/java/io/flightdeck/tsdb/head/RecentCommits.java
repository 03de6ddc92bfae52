package io.flightdeck.tsdb.head;

import java.util.Arrays;

/**
 * The commit numbers of a series' newest in-order samples that some querier may not see yet, in
 * append order. Numbers at or below the low watermark are visible to everyone and are dropped, so
 * this holds only the samples of commits in flight or newer than the oldest open querier.
 */
final class RecentCommits {
  private long[] seqs = new long[2];
  private int start;
  private int size;

  void add(long seq, long lowWatermark) {
    while (size > 0 && seqs[start] <= lowWatermark) {
      start = (start + 1) % seqs.length;
      size--;
    }
    if (seq <= lowWatermark) {
      return;
    }
    if (size == seqs.length) {
      long[] grown = new long[seqs.length * 2];
      for (int i = 0; i < size; i++) {
        grown[i] = seqs[(start + i) % seqs.length];
      }
      seqs = grown;
      start = 0;
    }
    seqs[(start + size) % seqs.length] = seq;
    size++;
  }

  /** How many of the newest samples a querier with this snapshot must not see. */
  int hiddenFor(long snapshot) {
    int hidden = 0;
    for (int i = size - 1; i >= 0 && seqs[(start + i) % seqs.length] > snapshot; i--) {
      hidden++;
    }
    return hidden;
  }

  void clear() {
    Arrays.fill(seqs, 0);
    start = 0;
    size = 0;
  }
}
