package io.flightdeck.training;

/**
 * The instants a correlation compares series at: a baseline as long as the window just before it,
 * then the window, {@link #POINTS_PER_HALF} points each, every {@code stepMs} from {@code fromMs}.
 *
 * @param fromMs the first instant (the baseline's start)
 * @param stepMs the spacing, at least {@link #MIN_STEP_MS}
 * @param points how many instants in all
 * @param windowFrom the index of the window's first instant
 */
public record CorrelationGrid(long fromMs, long stepMs, int points, int windowFrom) {
  public static final int POINTS_PER_HALF = 240;
  public static final long MIN_STEP_MS = 1000;

  /** The grid of a window {@code [startMs, endMs]}, {@code endMs > startMs}. */
  public static CorrelationGrid of(long startMs, long endMs) {
    long span = endMs - startMs;
    long step = Math.max(MIN_STEP_MS, span / POINTS_PER_HALF);
    int half = (int) (span / step);
    return new CorrelationGrid(startMs - half * step, step, 2 * half + 1, half);
  }

  public long time(int index) {
    return fromMs + index * stepMs;
  }

  public long lastMs() {
    return time(points - 1);
  }
}
