package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The nine values TensorBoard's Distributions dashboard draws for a histogram. */
class HistogramDistributionTest {
  private static HistogramPoint histogram(
      double min, double max, List<Double> limits, List<Double> counts) {
    double n = counts.stream().mapToDouble(Double::doubleValue).sum();
    return new HistogramPoint("h", 0, 0, min, max, n, 0, 0, limits, counts);
  }

  @Test
  void evenlyFilledBucketsGiveValuesProportionalToTheirFraction() {
    // Ten buckets of 0..10, ten values each: the value at fraction f is 10 f.
    List<Double> limits = List.of(1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0);
    List<Double> counts = List.of(10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0);
    double[] values = HistogramDistribution.of(histogram(0, 10, limits, counts));
    for (int b = 0; b < values.length; b++) {
      assertThat(values[b])
          .as("basis point %d", HistogramDistribution.BASIS_POINTS[b])
          .isCloseTo(HistogramDistribution.BASIS_POINTS[b] / 1000.0, within(1e-9));
    }
  }

  @Test
  void theOuterBucketsAreClampedToMinAndMax() {
    // Legacy histograms end in DBL_MAX; min and max bound the interpolation instead.
    List<Double> limits = List.of(-1.0, 1.0, Double.MAX_VALUE);
    List<Double> counts = List.of(0.0, 4.0, 4.0);
    double[] values = HistogramDistribution.of(histogram(-0.5, 3, limits, counts));
    assertThat(values[0]).isEqualTo(-0.5); // the first non-empty bucket starts at min
    assertThat(values[4]).isCloseTo(1.0, within(1e-9)); // half the weight: the middle edge
    assertThat(values[8]).isEqualTo(3.0); // all of it: max
    assertThat(values[6]).isCloseTo(1 + (0.8413 - 0.5) / 0.5 * 2, within(1e-9));
  }

  @Test
  void emptyBucketsAreSkippedNotDividedBy() {
    List<Double> limits = List.of(1.0, 2.0, 3.0);
    List<Double> counts = List.of(5.0, 0.0, 5.0);
    double[] values = HistogramDistribution.of(histogram(0, 3, limits, counts));
    assertThat(values).doesNotContain(Double.NaN);
    // Exactly half the weight lies below 1; like TensorBoard, the median is where the weight above
    // it begins: the start of the next non-empty bucket.
    assertThat(values[4]).isCloseTo(2.0, within(1e-9));
    assertThat(values[5]).isCloseTo(2 + (0.6915 - 0.5) / 0.5, within(1e-9));
  }

  @Test
  void anEmptyHistogramIsAllZero() {
    assertThat(HistogramDistribution.of(histogram(Double.NaN, Double.NaN, List.of(), List.of())))
        .containsOnly(0.0);
  }
}
