package io.flightdeck.tsdb;

import java.util.ArrayDeque;

/**
 * Recycles the arrays that hold a {@link BlockImport}'s open chunks. An import opens chunks series
 * after series (every series of a run, then those of the next run), and each grew its arrays from
 * {@link #FIRST_CAPACITY} by doubling: a 1 GB TensorBoard import allocated about 280 MB that way,
 * which the collector had to sweep while both import threads waited. Arrays come in powers of two
 * up to {@link #MAX_CAPACITY}: a chunk's samples, and twice that for the batch that brings a nearly
 * full chunk past its size, which almost every chunk meets once (when only chunk-sized arrays were
 * kept, each series of that 1 GB import still dropped one such pair, 290 MB in all). At most {@link
 * #MAX_KEPT_BYTES} are kept. Not thread-safe.
 */
final class OpenChunkArrays {
  static final int FIRST_CAPACITY = 32;
  static final int MAX_CAPACITY = 2 * ImportedSeries.SAMPLES_PER_CHUNK;

  /** Enough for the open chunks of a few hundred series, as a run of a wide logdir has. */
  static final long MAX_KEPT_BYTES = 8L << 20;

  private final ArrayDeque<long[]>[] times;
  private final ArrayDeque<double[]>[] values;
  private long keptBytes;

  @SuppressWarnings("unchecked") // arrays of a generic type, filled right here
  OpenChunkArrays() {
    int classes = classOf(MAX_CAPACITY) + 1;
    times = new ArrayDeque[classes];
    values = new ArrayDeque[classes];
    for (int c = 0; c < classes; c++) {
      times[c] = new ArrayDeque<>();
      values[c] = new ArrayDeque<>();
    }
  }

  /**
   * Timestamps and values of {@code capacity} samples, a power of two from {@link #FIRST_CAPACITY}:
   * {@link #values} must follow for the same capacity.
   */
  long[] times(int capacity) {
    long[] kept = kept(capacity) ? times[classOf(capacity)].poll() : null;
    if (kept == null) {
      return new long[capacity];
    }
    keptBytes -= bytes(capacity);
    return kept;
  }

  /** The values for the timestamps {@link #times} just gave. */
  double[] values(int capacity) {
    double[] kept = kept(capacity) ? values[classOf(capacity)].poll() : null;
    return kept != null ? kept : new double[capacity];
  }

  /** Takes back arrays from {@link #times} and {@link #values}; their contents are overwritten. */
  void giveBack(long[] t, double[] v) {
    if (kept(t.length) && keptBytes + bytes(t.length) <= MAX_KEPT_BYTES) {
      times[classOf(t.length)].push(t);
      values[classOf(v.length)].push(v);
      keptBytes += bytes(t.length);
    }
  }

  /** Bytes held in kept arrays. */
  long keptBytes() {
    return keptBytes;
  }

  private static long bytes(int capacity) {
    return (long) capacity * ImportedSeries.OPEN_SAMPLE_BYTES;
  }

  private static boolean kept(int capacity) {
    return capacity <= MAX_CAPACITY;
  }

  private static int classOf(int capacity) {
    return Integer.numberOfTrailingZeros(capacity / FIRST_CAPACITY);
  }
}
