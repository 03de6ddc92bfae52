package io.flightdeck.training;

import java.util.List;

/**
 * A run's (time, step) pairs in monotonic segments: a step going back starts a new segment (a
 * restart). Within a segment a point is kept where the step changes and where a plateau ends, so a
 * stall shows as two points at one step, however long it lasts.
 */
public record StepMap(List<Segment> segments) {
  public static final StepMap EMPTY = new StepMap(List.of());

  public StepMap {
    segments = List.copyOf(segments);
  }

  /** One monotonic stretch: times (ms) ascending, steps never decreasing. */
  public record Segment(long[] times, double[] steps) {
    public int size() {
      return times.length;
    }

    long start() {
      return times[0];
    }

    long end() {
      return times[times.length - 1];
    }
  }

  /**
   * The step at {@code timeMs}: interpolated within a segment; between segments (a restart's
   * downtime) and after the last point, the last step seen, since time passing without steps is a
   * stall and must stay visible on the step axis; null before the first point.
   */
  /**
   * {@link #stepAt} for many times at once, NaN where it is null: one walk through the segments
   * when the times ascend (a series' samples), so mapping a day of a 64-rank run stays linear.
   */
  public double[] stepsAt(long[] timesMs) {
    double[] out = new double[timesMs.length];
    if (!ascending(timesMs)) {
      for (int k = 0; k < timesMs.length; k++) {
        Double step = stepAt(timesMs[k]);
        out[k] = step == null ? Double.NaN : step;
      }
      return out;
    }
    int segment = 0;
    int point = 0;
    double before = Double.NaN;
    for (int k = 0; k < timesMs.length; k++) {
      long t = timesMs[k];
      while (segment < segments.size() && t > segments.get(segment).end()) {
        before = segments.get(segment).steps()[segments.get(segment).size() - 1];
        segment++;
        point = 0;
      }
      if (segment == segments.size() || t < segments.get(segment).start()) {
        out[k] = before;
        continue;
      }
      Segment s = segments.get(segment);
      long[] times = s.times();
      double[] steps = s.steps();
      while (point + 1 < times.length && times[point + 1] <= t) {
        point++;
      }
      out[k] =
          times[point] == t || point + 1 == times.length
              ? steps[point]
              : steps[point]
                  + (double) (t - times[point])
                      / (times[point + 1] - times[point])
                      * (steps[point + 1] - steps[point]);
    }
    return out;
  }

  private static boolean ascending(long[] times) {
    for (int k = 1; k < times.length; k++) {
      if (times[k] < times[k - 1]) {
        return false;
      }
    }
    return true;
  }

  public Double stepAt(long timeMs) {
    Double before = null;
    for (Segment segment : segments) {
      if (timeMs < segment.start()) {
        return before;
      }
      if (timeMs <= segment.end()) {
        return interpolate(segment, timeMs);
      }
      before = segment.steps()[segment.size() - 1];
    }
    return before;
  }

  private static double interpolate(Segment segment, long timeMs) {
    long[] times = segment.times();
    int i = java.util.Arrays.binarySearch(times, timeMs);
    if (i >= 0) {
      return segment.steps()[i];
    }
    int after = -i - 1;
    int prior = after - 1;
    double fraction = (double) (timeMs - times[prior]) / (times[after] - times[prior]);
    double[] steps = segment.steps();
    return steps[prior] + fraction * (steps[after] - steps[prior]);
  }
}
