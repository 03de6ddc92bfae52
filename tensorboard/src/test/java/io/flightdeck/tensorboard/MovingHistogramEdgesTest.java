package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.tensorboard.RecordingAppendable.Sample;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Histograms whose edges move at every step (TF2's 30 even buckets between min and max) must not
 * grow the number of series without bound: past {@link TensorBoardIngester#MAX_BUCKET_BOUNDS}
 * bounds the tag is stored as its distribution.
 */
class MovingHistogramEdgesTest {
  private static final double T0 = 1_700_000_000.0;
  private static final int BUCKETS = 30;

  private final RecordingAppendable storage = new RecordingAppendable();
  private final TensorBoardIngester ingester = new TensorBoardIngester(storage, "logs", 100);

  /** TF2's layout: {@code BUCKETS} even buckets from min to max, one value in each. */
  private static HistogramPoint tf2Histogram(long step) {
    double min = -1 - step * 0.001;
    double max = 1 + step * 0.002;
    List<Double> limits = new ArrayList<>();
    List<Double> counts = new ArrayList<>();
    for (int i = 1; i <= BUCKETS; i++) {
      limits.add(min + (max - min) * i / BUCKETS);
      counts.add(1.0);
    }
    return new HistogramPoint(
        "w", step, T0 + step, min, max, BUCKETS, Double.NaN, Double.NaN, limits, counts);
  }

  @Test
  void movingEdgesStopAddingBucketSeriesAndSwitchToTheDistribution() {
    int steps = 200;
    for (int step = 0; step < steps; step++) {
      ingester.write("r", tf2Histogram(step));
    }
    ingester.commit();

    long bucketSeries = count("tensorboard_histogram_bucket");
    assertThat(bucketSeries).isBetween(2L, TensorBoardIngester.MAX_BUCKET_BOUNDS + 1L);
    assertThat(count("tensorboard_histogram_quantile"))
        .isEqualTo(HistogramDistribution.BASIS_POINTS.length);
    // Every step is still counted and stepped, whichever form it took.
    assertThat(storage.samples(series("tensorboard_histogram_count"))).hasSize(steps);
    assertThat(storage.samples(series("tensorboard_histogram_step"))).hasSize(steps);
    // The number of samples per point stays bounded too: no point writes more than the cap.
    assertThat(storage.sampleCount())
        .isLessThan((long) steps * (TensorBoardIngester.MAX_BUCKET_BOUNDS + 20));
  }

  @Test
  void bucketSeriesEndWithAStalenessMarkerWhereTheDistributionBegins() {
    for (int step = 0; step < 100; step++) {
      ingester.write("r", tf2Histogram(step));
    }
    ingester.commit();
    List<Sample> median = storage.samples(quantile("0.5"));
    long switchedAt = median.get(0).t();
    List<Sample> inf =
        storage.samples(
            series("tensorboard_histogram_bucket").toBuilder().set("le", "+Inf").build());
    Sample last = inf.get(inf.size() - 1);
    assertThat(last.t()).isEqualTo(switchedAt);
    assertThat(StaleMarker.is(last.v())).isTrue();
    // Before the switch, the buckets held the exact counts.
    assertThat(inf.get(0).v()).isEqualTo(BUCKETS);
  }

  @Test
  void theDistributionFollowsTheData() {
    for (int step = 0; step < 100; step++) {
      ingester.write("r", tf2Histogram(step));
    }
    ingester.commit();
    List<Sample> low = storage.samples(quantile("0"));
    List<Sample> median = storage.samples(quantile("0.5"));
    List<Sample> high = storage.samples(quantile("1"));
    Sample lastLow = low.get(low.size() - 1);
    // At step 99: values spread evenly over [-1.099, 1.198].
    assertThat(lastLow.v()).isEqualTo(-1 - 99 * 0.001);
    assertThat(high.get(high.size() - 1).v()).isEqualTo(1 + 99 * 0.002);
    assertThat(median.get(median.size() - 1).v())
        .isCloseTo(
            (-1 - 99 * 0.001 + 1 + 99 * 0.002) / 2, org.assertj.core.api.Assertions.within(1e-9));
  }

  @Test
  void distributionPointsKeepTheirExactBinsByPosition() {
    for (int step = 0; step < 100; step++) {
      ingester.write("r", tf2Histogram(step));
    }
    ingester.commit();
    assertThat(count("tensorboard_histogram_bin_count")).isEqualTo(BUCKETS);
    assertThat(count("tensorboard_histogram_bin_edge")).isEqualTo(BUCKETS + 1);
    HistogramPoint last = tf2Histogram(99);
    long t = lastSample(bin("edge", 0)).t();
    assertThat(lastSample(bin("edge", 0)).v()).isEqualTo(last.min());
    for (int j = 1; j <= BUCKETS; j++) {
      // The last bin ends at the maximum, as TensorBoard draws a legacy histogram.
      double upper = j == BUCKETS ? last.max() : last.bucketLimit(j - 1);
      assertThat(lastSample(bin("edge", j)).v()).isEqualTo(upper);
      assertThat(lastSample(bin("bin", j - 1)).v()).isEqualTo(1.0);
      assertThat(lastSample(bin("bin", j - 1)).t()).isEqualTo(t);
    }
    // Only the points after the switch: the earlier ones have exact buckets by bound.
    assertThat(storage.samples(bin("bin", 0))).hasSize(storage.samples(quantile("0.5")).size());
  }

  @Test
  void aPointWithFewerBinsEndsTheUnusedPositionsAndDropsEmptyEnds() {
    for (int step = 0; step < 100; step++) {
      ingester.write("r", tf2Histogram(step));
    }
    // Legacy form: DBL_MAX as the last limit, empty bins at both ends (TensorBoard drops them).
    ingester.write(
        "r",
        new HistogramPoint(
            "w",
            100,
            T0 + 100,
            -0.5,
            0.7,
            5,
            1,
            1,
            List.of(-1.0, 0.0, 0.5, 1.0, Double.MAX_VALUE),
            List.of(0.0, 2.0, 0.0, 3.0, 0.0)));
    ingester.commit();
    // Bins (-0.5, 0.0] 2, (0.0, 0.5] 0, (0.5, 0.7] 3: the minimum and maximum as outer edges.
    assertThat(lastSample(bin("edge", 0)).v()).isEqualTo(-0.5);
    assertThat(lastSample(bin("edge", 1)).v()).isEqualTo(0.0);
    assertThat(lastSample(bin("edge", 2)).v()).isEqualTo(0.5);
    assertThat(lastSample(bin("edge", 3)).v()).isEqualTo(0.7);
    assertThat(lastSample(bin("bin", 0)).v()).isEqualTo(2.0);
    assertThat(lastSample(bin("bin", 1)).v()).isEqualTo(0.0);
    assertThat(lastSample(bin("bin", 2)).v()).isEqualTo(3.0);
    assertThat(StaleMarker.is(lastSample(bin("bin", 3)).v())).isTrue();
    assertThat(StaleMarker.is(lastSample(bin("edge", 4)).v())).isTrue();
    assertThat(StaleMarker.is(lastSample(bin("edge", BUCKETS)).v())).isTrue();
  }

  @Test
  void fixedEdgesKeepTheirBucketsForever() {
    List<Double> limits = List.of(-1.0, 0.0, 1.0, Double.MAX_VALUE);
    for (int step = 0; step < 300; step++) {
      ingester.write(
          "r",
          new HistogramPoint(
              "w", step, T0 + step, -1.5, 2, 4, 0, 0, limits, List.of(1.0, 1.0, 1.0, 1.0)));
    }
    ingester.commit();
    assertThat(count("tensorboard_histogram_quantile")).isZero();
    assertThat(count("tensorboard_histogram_bin_count")).isZero();
    assertThat(
            storage.samples(
                series("tensorboard_histogram_bucket").toBuilder().set("le", "0").build()))
        .hasSize(300);
  }

  private long count(String metric) {
    return storage.series.keySet().stream().filter(l -> metric.equals(l.metricName())).count();
  }

  private Sample lastSample(Labels series) {
    List<Sample> samples = storage.samples(series);
    return samples.get(samples.size() - 1);
  }

  /** {@code bin_count{bin=index}} for "bin", {@code bin_edge{edge=index}} for "edge". */
  private static Labels bin(String label, int index) {
    String metric =
        label.equals("bin") ? "tensorboard_histogram_bin_count" : "tensorboard_histogram_bin_edge";
    return series(metric).toBuilder().set(label, Integer.toString(index)).build();
  }

  private static Labels quantile(String q) {
    return series("tensorboard_histogram_quantile").toBuilder().set("quantile", q).build();
  }

  private static Labels series(String metric) {
    return Labels.of("__name__", metric, "tag", "w", "run", "r", "logdir", "logs");
  }
}
