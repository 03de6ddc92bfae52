package io.flightdeck.tsdb;

import java.util.ArrayDeque;

/**
 * Recycles the arrays that hold a {@link BlockImport}'s open chunks. An import opens chunks series
 * after series (every series of a run, then those of the next run), and each grew its arrays from
 * {@link #FIRST_CAPACITY} to a chunk's samples by doubling: a 1 GB TensorBoard import allocated
 * about 280 MB that way, which the collector had to sweep while both import threads waited. Arrays
 * come in powers of two up to a chunk's samples (larger ones, for a batch that brings one series
 * more, are not kept); at most {@link #KEPT_PER_CAPACITY} of each are kept, about 2 MB in all. Not
 * thread-safe.
 */
final class OpenChunkArrays {
  static final int FIRST_CAPACITY = 32;
  private static final int KEPT_PER_CAPACITY = 64;

  private final ArrayDeque<long[]>[] times;
  private final ArrayDeque<double[]>[] values;

  @SuppressWarnings("unchecked") // arrays of a generic type, filled right here
  OpenChunkArrays() {
    int classes = classOf(ImportedSeries.SAMPLES_PER_CHUNK) + 1;
    times = new ArrayDeque[classes];
    values = new ArrayDeque[classes];
    for (int c = 0; c < classes; c++) {
      times[c] = new ArrayDeque<>();
      values[c] = new ArrayDeque<>();
    }
  }

  /** Timestamps of {@code capacity} samples, a power of two from {@link #FIRST_CAPACITY}. */
  long[] times(int capacity) {
    long[] kept = kept(capacity) ? times[classOf(capacity)].poll() : null;
    return kept != null ? kept : new long[capacity];
  }

  /** Values of {@code capacity} samples, a power of two from {@link #FIRST_CAPACITY}. */
  double[] values(int capacity) {
    double[] kept = kept(capacity) ? values[classOf(capacity)].poll() : null;
    return kept != null ? kept : new double[capacity];
  }

  /** Takes back arrays from {@link #times} and {@link #values}; their contents are overwritten. */
  void giveBack(long[] t, double[] v) {
    if (kept(t.length) && times[classOf(t.length)].size() < KEPT_PER_CAPACITY) {
      times[classOf(t.length)].push(t);
      values[classOf(v.length)].push(v);
    }
  }

  private static boolean kept(int capacity) {
    return capacity <= ImportedSeries.SAMPLES_PER_CHUNK;
  }

  private static int classOf(int capacity) {
    return Integer.numberOfTrailingZeros(capacity / FIRST_CAPACITY);
  }
}
