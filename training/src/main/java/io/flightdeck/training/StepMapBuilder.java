package io.flightdeck.training;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Merges the step series of a run (one per rank or target) into a {@link StepMap}.
 *
 * <p>Samples are taken in time order. A sample at or above the segment's highest step extends it.
 * One below it is a restart when its own series went back (or the series is new and began after the
 * run's start), unless a restart already began a segment less than {@link #RESTART_GRACE_MS} ago:
 * then it is a rank reporting the same restart a little later. Any other sample below the highest
 * step is a lagging rank and is left out, so segments stay monotonic.
 */
final class StepMapBuilder {
  /** How long after a restart the other ranks' lower steps still belong to the same restart. */
  static final long RESTART_GRACE_MS = 60_000;

  private StepMapBuilder() {}

  static StepMap build(List<SeriesReads.Samples> series, long runStartMs) {
    int total = series.stream().mapToInt(SeriesReads.Samples::size).sum();
    if (total == 0) {
      return StepMap.EMPTY;
    }
    long[] times = new long[total];
    double[] values = new double[total];
    int[] owners = new int[total];
    int n = 0;
    for (int s = 0; s < series.size(); s++) {
      SeriesReads.Samples samples = series.get(s);
      for (int i = 0; i < samples.size(); i++) {
        times[n] = samples.times()[i];
        values[n] = samples.values()[i];
        owners[n] = s;
        n++;
      }
    }
    int[] byTime = timeOrder(times, total);

    double[] lastBySeries = new double[series.size()];
    Arrays.fill(lastBySeries, Double.NaN);
    List<StepMap.Segment> segments = new ArrayList<>();
    Points current = new Points();
    double highest = Double.NEGATIVE_INFINITY;
    long restartedAt = Long.MIN_VALUE;
    for (int k : byTime) {
      long t = times[k];
      double v = values[k];
      int owner = owners[k];
      if (Double.isNaN(v)) {
        continue;
      }
      if (current.size == 0 || v >= highest) {
        current.add(t, v);
        highest = Math.max(highest, v);
      } else {
        double own = lastBySeries[owner];
        boolean wentBack = Double.isNaN(own) ? t > runStartMs + RESTART_GRACE_MS : v < own;
        boolean sameRestart = restartedAt != Long.MIN_VALUE && t - restartedAt < RESTART_GRACE_MS;
        if (wentBack && !sameRestart) {
          segments.add(current.compressed());
          current = new Points();
          current.add(t, v);
          highest = v;
          restartedAt = t;
        }
      }
      lastBySeries[owner] = v;
    }
    segments.add(current.compressed());
    return new StepMap(segments);
  }

  /**
   * The sample indices in time order, ties in index order. Sorted as primitive keys (time offset
   * times count plus index): a day of 64 ranks is 370,000 samples, which boxed indices and a
   * comparator sorted about ten times slower.
   */
  static int[] timeOrder(long[] times, int total) {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (int i = 0; i < total; i++) {
      min = Math.min(min, times[i]);
      max = Math.max(max, times[i]);
    }
    int[] order = new int[total];
    if (max - min >= Long.MAX_VALUE / total - 1) {
      Integer[] boxed = new Integer[total];
      for (int i = 0; i < total; i++) {
        boxed[i] = i;
      }
      Arrays.sort(boxed, (a, b) -> Long.compare(times[a], times[b]));
      for (int i = 0; i < total; i++) {
        order[i] = boxed[i];
      }
      return order;
    }
    long[] keys = new long[total];
    for (int i = 0; i < total; i++) {
      keys[i] = (times[i] - min) * total + i;
    }
    Arrays.sort(keys);
    for (int i = 0; i < total; i++) {
      order[i] = (int) (keys[i] % total);
    }
    return order;
  }

  /** A segment's points while it grows. */
  private static final class Points {
    long[] times = new long[64];
    double[] steps = new double[64];
    int size;

    void add(long t, double step) {
      if (size > 0 && times[size - 1] == t) {
        steps[size - 1] = Math.max(steps[size - 1], step); // two ranks at one instant
        return;
      }
      if (size == times.length) {
        times = Arrays.copyOf(times, size * 2);
        steps = Arrays.copyOf(steps, size * 2);
      }
      times[size] = t;
      steps[size++] = step;
    }

    /** Keeps the first and the last point of each step value: a plateau becomes two points. */
    StepMap.Segment compressed() {
      long[] keptTimes = new long[size];
      double[] keptSteps = new double[size];
      int kept = 0;
      for (int i = 0; i < size; i++) {
        boolean first = i == 0 || steps[i] != steps[i - 1];
        boolean last = i == size - 1 || steps[i + 1] != steps[i];
        if (first || last) {
          keptTimes[kept] = times[i];
          keptSteps[kept++] = steps[i];
        }
      }
      return new StepMap.Segment(Arrays.copyOf(keptTimes, kept), Arrays.copyOf(keptSteps, kept));
    }
  }
}
