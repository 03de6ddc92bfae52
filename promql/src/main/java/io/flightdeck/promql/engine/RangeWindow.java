package io.flightdeck.promql.engine;

/**
 * The samples of one series inside one step's window {@code (rangeStart, rangeEnd]}: indexes {@code
 * from} (inclusive) to {@code to} (exclusive) of the series' arrays, plus the step's scalar
 * arguments. A range function reads it and answers with {@link #result}, or with nothing.
 */
final class RangeWindow {
  long[] t;
  double[] v;
  int from;
  int to;
  long rangeStart;
  long rangeEnd;
  long rangeMs;
  long stepTime;
  double[] scalars;
  double result;

  /**
   * For counter functions, {@code drops[i]}: how many samples up to {@code i} are below the one
   * before them, so that a window can tell in constant time that it holds no counter reset.
   */
  int[] drops = new int[0];

  /** Whether {@link #drops} is counted for each series (rate and increase). */
  boolean countsDrops;

  /** Counts the drops of the series now in {@link #v}, over its first {@code size} samples. */
  void countDrops(int size) {
    if (drops.length < size) {
      drops = new int[Math.max(size, drops.length * 2)];
    }
    if (size == 0) {
      return;
    }
    int count = 0;
    double previous = v[0];
    drops[0] = 0;
    for (int i = 1; i < size; i++) {
      double current = v[i];
      count += current < previous ? 1 : 0;
      drops[i] = count;
      previous = current;
    }
  }

  /** Whether a sample of the window is below the one before it (needs {@link #countDrops}). */
  boolean hasDrop() {
    return drops[to - 1] != drops[from];
  }

  int size() {
    return to - from;
  }

  double first() {
    return v[from];
  }

  double last() {
    return v[to - 1];
  }

  long firstT() {
    return t[from];
  }

  long lastT() {
    return t[to - 1];
  }

  /** Sets the result; functions return this to say they produced a value. */
  boolean answer(double value) {
    result = value;
    return true;
  }
}
