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
