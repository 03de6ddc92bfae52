package io.flightdeck.promqltest;

import io.flightdeck.model.StaleMarker;

/** One value of a series description: a float (possibly the stale marker) or a histogram. */
public sealed interface SampleValue permits SampleValue.Float, SampleValue.Histogram {

  /**
   * A float, kept exactly as written; {@code stale} is {@link StaleMarker#VALUE}, compare with
   * {@link StaleMarker#is}.
   */
  record Float(double value) implements SampleValue {}

  /**
   * A native histogram: {@code start}, with {@code increment} added (or subtracted) {@code steps}
   * times by repeated histogram arithmetic, as {@code {{a}}+{{b}}xN} expands ({@code increment} is
   * null for a plain literal). Native histograms are not evaluated yet, so the expansion is kept
   * symbolic instead of computed.
   */
  record Histogram(HistogramLiteral start, HistogramLiteral increment, int steps, boolean subtract)
      implements SampleValue {

    static Histogram of(HistogramLiteral literal) {
      return new Histogram(literal, null, 0, false);
    }
  }
}
