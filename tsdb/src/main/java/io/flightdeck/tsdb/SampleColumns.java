package io.flightdeck.tsdb;

import java.util.Arrays;

/**
 * Samples waiting for a commit, as columns: series, timestamp, value. An appender keeps one and
 * reuses it from commit to commit, so a batch of thousands of samples does not allocate and regrow
 * its arrays again each time. Not thread-safe.
 *
 * @param <S> the appender's series type
 */
public final class SampleColumns<S> {
  private Object[] series;
  private long[] times;
  private double[] values;
  private int size;

  public SampleColumns(int capacity) {
    series = new Object[capacity];
    times = new long[capacity];
    values = new double[capacity];
  }

  public void add(S s, long t, double v) {
    if (size == times.length) {
      int capacity = size * 2;
      series = Arrays.copyOf(series, capacity);
      times = Arrays.copyOf(times, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    series[size] = s;
    times[size] = t;
    values[size] = v;
    size++;
  }

  public int size() {
    return size;
  }

  @SuppressWarnings("unchecked") // only add() stores here, and it takes an S
  public S series(int i) {
    return (S) series[i];
  }

  public long time(int i) {
    return times[i];
  }

  public double value(int i) {
    return values[i];
  }

  /** Empties the columns, dropping their series references; the arrays keep their size. */
  public void clear() {
    Arrays.fill(series, 0, size, null);
    size = 0;
  }
}
