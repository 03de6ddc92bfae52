package io.flightdeck.tsdb.head;

import java.util.Arrays;

/**
 * Samples of one series that arrived behind its newest sample: inside the out-of-order window, or
 * backfill older than the head. Kept sorted by timestamp, one sample per timestamp, each with the
 * commit number that made it visible. Guarded by the owning series' lock.
 */
final class OutOfOrderSamples {
  private long[] times = new long[4];
  private double[] values = new double[4];
  private long[] seqs = new long[4];
  private int size;

  int size() {
    return size;
  }

  long time(int i) {
    return times[i];
  }

  double value(int i) {
    return values[i];
  }

  long seq(int i) {
    return seqs[i];
  }

  /** Index of the sample at {@code t}, or {@code -(insertion point) - 1}. */
  int find(long t) {
    return Arrays.binarySearch(times, 0, size, t);
  }

  /** Inserts a sample whose timestamp is not present yet. */
  void insert(long t, double v, long seq) {
    int at = -find(t) - 1;
    if (size == times.length) {
      int capacity = size * 2;
      times = Arrays.copyOf(times, capacity);
      values = Arrays.copyOf(values, capacity);
      seqs = Arrays.copyOf(seqs, capacity);
    }
    System.arraycopy(times, at, times, at + 1, size - at);
    System.arraycopy(values, at, values, at + 1, size - at);
    System.arraycopy(seqs, at, seqs, at + 1, size - at);
    times[at] = t;
    values[at] = v;
    seqs[at] = seq;
    size++;
  }

  /** Removes samples with {@code t < before} and commit number {@code <= maxSeq}. */
  void removeBefore(long before, long maxSeq) {
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (times[i] >= before || seqs[i] > maxSeq) {
        times[kept] = times[i];
        values[kept] = values[i];
        seqs[kept] = seqs[i];
        kept++;
      }
    }
    size = kept;
  }

  /** Removes samples within [mint, maxt]. */
  void removeRange(long mint, long maxt) {
    int kept = 0;
    for (int i = 0; i < size; i++) {
      if (times[i] < mint || times[i] > maxt) {
        times[kept] = times[i];
        values[kept] = values[i];
        seqs[kept] = seqs[i];
        kept++;
      }
    }
    size = kept;
  }

  long minTime() {
    return size == 0 ? Long.MAX_VALUE : times[0];
  }
}
