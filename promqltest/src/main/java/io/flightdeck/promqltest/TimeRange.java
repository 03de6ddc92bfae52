package io.flightdeck.promqltest;

/**
 * Evaluation times in milliseconds since the test epoch: {@code start}, {@code start + step}, ...
 * up to {@code end}. An instant has {@code start == end} and step 0.
 */
public record TimeRange(long startMs, long endMs, long stepMs) {

  static TimeRange instant(long atMs) {
    return new TimeRange(atMs, atMs, 0);
  }
}
