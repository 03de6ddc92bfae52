package io.flightdeck.tsdb;

import java.util.Arrays;

/**
 * The samples of a {@link BlockImport}'s open appender, as columns. The import keeps one and hands
 * it to each appender in turn (one at a time), so a batch of thousands of samples does not allocate
 * and regrow its arrays again for every commit. Not thread-safe.
 */
final class ImportBatch {
  private ImportedSeries[] series = new ImportedSeries[1024];
  private long[] times = new long[1024];
  private double[] values = new double[1024];
  private int size;

  void add(ImportedSeries s, long t, double v) {
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

  int size() {
    return size;
  }

  ImportedSeries series(int i) {
    return series[i];
  }

  long time(int i) {
    return times[i];
  }

  double value(int i) {
    return values[i];
  }

  /** Empties the batch; the arrays keep their size for the next one. */
  void clear() {
    size = 0;
  }
}
