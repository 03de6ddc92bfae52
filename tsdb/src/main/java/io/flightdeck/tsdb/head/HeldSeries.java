package io.flightdeck.tsdb.head;

import java.util.Arrays;

/**
 * The series one appender holds, each with the newest sample the batch has for it. Open addressing
 * by identity (hashed by the series id), with the samples in parallel arrays, so a batch allocates
 * a few arrays instead of a map entry and a small array per series. Not thread-safe.
 */
final class HeldSeries {
  /** Slot of each series in the parallel arrays, at its hash position; at most half full. */
  private HeadSeries[] table = new HeadSeries[128];

  private int[] slotAt = new int[128];

  private HeadSeries[] series = new HeadSeries[64];
  private long[] lastTime = new long[64];
  private double[] lastValue = new double[64];
  private boolean[] hasSample = new boolean[64];
  private int size;

  /** The slot of a held series, or -1. */
  int find(HeadSeries s) {
    int mask = table.length - 1;
    for (int i = hash(s) & mask; ; i = (i + 1) & mask) {
      HeadSeries at = table[i];
      if (at == s) {
        return slotAt[i];
      }
      if (at == null) {
        return -1;
      }
    }
  }

  /** Holds a series not held yet, without a sample; returns its slot. */
  int add(HeadSeries s) {
    if (size == series.length) {
      int capacity = size * 2;
      series = Arrays.copyOf(series, capacity);
      lastTime = Arrays.copyOf(lastTime, capacity);
      lastValue = Arrays.copyOf(lastValue, capacity);
      hasSample = Arrays.copyOf(hasSample, capacity);
    }
    if ((size + 1) * 2 > table.length) {
      rehash(table.length * 2);
    }
    int slot = size++;
    series[slot] = s;
    hasSample[slot] = false;
    place(s, slot);
    return slot;
  }

  int size() {
    return size;
  }

  HeadSeries series(int slot) {
    return series[slot];
  }

  boolean hasSample(int slot) {
    return hasSample[slot];
  }

  long lastTime(int slot) {
    return lastTime[slot];
  }

  double lastValue(int slot) {
    return lastValue[slot];
  }

  void setLast(int slot, long t, double v) {
    hasSample[slot] = true;
    lastTime[slot] = t;
    lastValue[slot] = v;
  }

  void clear() {
    Arrays.fill(table, null);
    Arrays.fill(series, 0, size, null);
    size = 0;
  }

  private void place(HeadSeries s, int slot) {
    int mask = table.length - 1;
    int i = hash(s) & mask;
    while (table[i] != null) {
      i = (i + 1) & mask;
    }
    table[i] = s;
    slotAt[i] = slot;
  }

  private void rehash(int capacity) {
    table = new HeadSeries[capacity];
    slotAt = new int[capacity];
    for (int slot = 0; slot < size; slot++) {
      place(series[slot], slot);
    }
  }

  private static int hash(HeadSeries s) {
    int h = s.id * 0x9E3779B9;
    return h ^ (h >>> 16);
  }
}
