package io.flightdeck.storage;

import java.util.Arrays;

/**
 * A growable run of samples in two parallel arrays, filled by {@link SampleIterator#drainTo}. The
 * arrays are handed to the reader as they are: {@link #timestamps()} and {@link #values()} may be
 * longer than {@link #size()}.
 */
public final class SampleBuffer {
  private long[] timestamps;
  private double[] values;
  private int size;

  public SampleBuffer(int capacity) {
    timestamps = new long[Math.max(1, capacity)];
    values = new double[Math.max(1, capacity)];
  }

  public void add(long timestamp, double value) {
    if (size == timestamps.length) {
      timestamps = Arrays.copyOf(timestamps, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    timestamps[size] = timestamp;
    values[size] = value;
    size++;
  }

  /** Appends samples {@code from} (inclusive) to {@code to} (exclusive) of the given arrays. */
  public void addAll(long[] fromTimestamps, double[] fromValues, int from, int to) {
    int n = to - from;
    if (size + n > timestamps.length) {
      int grown = Math.max(size + n, size * 2);
      timestamps = Arrays.copyOf(timestamps, grown);
      values = Arrays.copyOf(values, grown);
    }
    System.arraycopy(fromTimestamps, from, timestamps, size, n);
    System.arraycopy(fromValues, from, values, size, n);
    size += n;
  }

  /** Keeps the first {@code newSize} samples. */
  public void truncate(int newSize) {
    if (newSize < 0 || newSize > size) {
      throw new IndexOutOfBoundsException("cannot truncate " + size + " samples to " + newSize);
    }
    size = newSize;
  }

  /** Empties the buffer, keeping its arrays for the next fill. */
  public void clear() {
    size = 0;
  }

  /** Keeps only the samples whose value {@code keep} accepts, in order. */
  public void retainValues(java.util.function.DoublePredicate keep) {
    // Most buffers keep every sample: nothing moves before the first one dropped.
    int kept = 0;
    while (kept < size && keep.test(values[kept])) {
      kept++;
    }
    for (int i = kept + 1; i < size; i++) {
      if (keep.test(values[i])) {
        timestamps[kept] = timestamps[i];
        values[kept] = values[i];
        kept++;
      }
    }
    size = kept;
  }

  public int size() {
    return size;
  }

  public long[] timestamps() {
    return timestamps;
  }

  public double[] values() {
    return values;
  }
}
