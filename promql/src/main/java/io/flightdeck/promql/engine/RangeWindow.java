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
