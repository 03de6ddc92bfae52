package io.flightdeck.promqltest;

import java.util.List;

/** What an eval command expects its query to return when it does not expect a failure. */
public sealed interface ExpectedResult
    permits ExpectedResult.Series, ExpectedResult.Scalar, ExpectedResult.Text {

  /**
   * A vector (one slot per series) or a matrix (slot n at {@code start + n * step} of the eval's
   * range, or of its {@code expect range vector} range). No series means an empty result.
   */
  record Series(List<SeriesDescription> series) implements ExpectedResult {
    public Series {
      series = List.copyOf(series);
    }
  }

  /** A bare number line: the result must be a scalar with this value. */
  record Scalar(double value, int line) implements ExpectedResult {}

  /** {@code expect string "..."}: the result must be a string equal to {@code value}. */
  record Text(String value, int line) implements ExpectedResult {}
}
