package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flightdeck.model.Labels;
import io.flightdeck.tensorboard.RecordingAppendable.Sample;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TensorBoardIngesterTest {
  private static final double T0 = 1_700_000_000.0;

  private final RecordingAppendable storage = new RecordingAppendable();
  private final TensorBoardIngester ingester = new TensorBoardIngester(storage, "logs", 3);

  @Test
  void scalarAndStepShareLabelsAndTimestamp() {
    ingester.write("runs/a", new ScalarPoint("train/loss", 7, T0 + 0.1234, 0.5));
    ingester.commit();

    assertThat(storage.samples(series("tensorboard_scalar", "train/loss", "runs/a")))
        .containsExactly(new Sample(1_700_000_000_123L, 0.5));
    assertThat(storage.samples(series("tensorboard_scalar_step", "train/loss", "runs/a")))
        .containsExactly(new Sample(1_700_000_000_123L, 7));
    assertThat(ingester.scalarPoints()).isEqualTo(1);
  }

  @Test
  void stepsWithinOneMillisecondAreAllKeptOneMillisecondApart() {
    for (int step = 0; step < 5; step++) {
      ingester.write(".", new ScalarPoint("loss", step, T0, step * 10.0));
    }
    ingester.write(".", new ScalarPoint("loss", 5, T0 + 0.002, 50.0));
    ingester.write(".", new ScalarPoint("loss", 6, T0 + 0.003, 60.0));
    ingester.commit();

    long t = 1_700_000_000_000L;
    assertThat(storage.samples(series("tensorboard_scalar", "loss", ".")))
        .extracting(Sample::t, Sample::v)
        .containsExactly(
            tuple(t, 0.0),
            tuple(t + 1, 10.0),
            tuple(t + 2, 20.0),
            tuple(t + 3, 30.0),
            tuple(t + 4, 40.0),
            tuple(t + 5, 50.0),
            tuple(t + 6, 60.0));
    assertThat(storage.samples(series("tensorboard_scalar_step", "loss", ".")))
        .extracting(Sample::v)
        .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0);
  }

  @Test
  void stepsGoingBackAfterARestartKeepEveryPoint() {
    long[] steps = {98, 99, 90, 91};
    for (int i = 0; i < steps.length; i++) {
      ingester.write("r", new ScalarPoint("loss", steps[i], T0 + i, i));
    }
    ingester.commit();

    assertThat(storage.samples(series("tensorboard_scalar_step", "loss", "r")))
        .extracting(Sample::v)
        .containsExactly(98.0, 99.0, 90.0, 91.0);
  }

  @Test
  void aStepNotAboveThePreviousOneMarksWhereEarlierPointsAreSuperseded() {
    long[] steps = {5, 6, 6, 3, 4};
    for (int i = 0; i < steps.length; i++) {
      ingester.write("r", new ScalarPoint("loss", steps[i], T0 + i, i));
      ingester.write("r", histogram(steps[i], List.of(1.0), List.of(1.0)));
    }
    ingester.commit();

    // The histograms' wall times (T0 + step) go back too, so their timestamps are bumped.
    long t = 1_700_000_000_000L;
    assertThat(storage.samples(series("tensorboard_restart_step", "loss", "r")))
        .containsExactly(new Sample(t + 2000, 6), new Sample(t + 3000, 3));
    assertThat(storage.samples(series("tensorboard_restart_step", "h", "r")))
        .containsExactly(new Sample(t + 6001, 6), new Sample(t + 6002, 3));
  }

  @Test
  void textGoesToTheTextStoreWhenThereIsOne(@TempDir Path dataDir) {
    try (FileTextStore texts = FileTextStore.open(dataDir, "logs")) {
      TensorBoardIngester withTexts =
          new TensorBoardIngester(storage, new SideStores(texts, null, null), "logs", 3);
      withTexts.write("r", new TextPoint("notes/text_summary", 2, T0, List.of("hello")));
      withTexts.commit();

      assertThat(withTexts.textPoints()).isEqualTo(1);
      assertThat(texts.fetch("r", "notes/text_summary", 0, 10))
          .containsExactly(new TextSample("r", "notes/text_summary", 2, T0, List.of("hello")));
      assertThat(storage.sampleCount()).isZero();
    }
  }

  @Test
  void separateSeriesHaveSeparateClocks() {
    ingester.write("r", new ScalarPoint("a", 0, T0, 1));
    ingester.write("r", new ScalarPoint("b", 0, T0, 2));
    ingester.write("r2", new ScalarPoint("a", 0, T0, 3));
    ingester.commit();

    assertThat(storage.samples(series("tensorboard_scalar", "b", "r")))
        .containsExactly(new Sample(1_700_000_000_000L, 2));
    assertThat(storage.samples(series("tensorboard_scalar", "a", "r2")))
        .containsExactly(new Sample(1_700_000_000_000L, 3));
  }

  @Test
  void writingTheSamePointsAgainChangesNothing() {
    List<ScalarPoint> points =
        List.of(new ScalarPoint("x", 0, T0, 1), new ScalarPoint("x", 1, T0, 2));
    points.forEach(p -> ingester.write(".", p));
    ingester.commit();
    Map<Labels, ?> first = Map.copyOf(storage.series);

    TensorBoardIngester again = new TensorBoardIngester(storage, "logs", 3);
    points.forEach(p -> again.write(".", p));
    again.commit();

    assertThat(storage.series).isEqualTo(first);
    assertThat(again.rejectedSamples()).isZero();
  }

  @Test
  void legacyHistogramBecomesCumulativeBuckets() {
    ingester.write(
        "r",
        new HistogramPoint(
            "w",
            3,
            T0,
            -1,
            5,
            6,
            9.5,
            30,
            List.of(0.0, 1.0, 2.5, Double.MAX_VALUE),
            List.of(1.0, 0.0, 3.0, 2.0)));
    ingester.commit();

    assertThat(bucket("w", "0")).containsExactly(new Sample(1_700_000_000_000L, 1));
    assertThat(bucket("w", "1")).extracting(Sample::v).containsExactly(1.0);
    assertThat(bucket("w", "2.5")).extracting(Sample::v).containsExactly(4.0);
    assertThat(bucket("w", "+Inf")).extracting(Sample::v).containsExactly(6.0);
    assertThat(storage.samples(series("tensorboard_histogram_count", "w", "r")))
        .extracting(Sample::v)
        .containsExactly(6.0);
    assertThat(storage.samples(series("tensorboard_histogram_sum", "w", "r")))
        .extracting(Sample::v)
        .containsExactly(9.5);
    assertThat(ingester.histogramPoints()).isEqualTo(1);
  }

  /** A damaged histogram with fewer counts than limits: the limits without a count count none. */
  @Test
  void aHistogramWithFewerCountsThanLimitsIsStoredWithWhatItHas() {
    ingester.write(
        "r",
        new HistogramPoint(
            "w", 3, T0, -1, 5, 6, 9.5, 30, List.of(0.0, 1.0, 2.5), List.of(1.0, 2.0)));
    ingester.commit();

    assertThat(bucket("w", "0")).extracting(Sample::v).containsExactly(1.0);
    assertThat(bucket("w", "1")).extracting(Sample::v).containsExactly(3.0);
    assertThat(bucket("w", "2.5")).extracting(Sample::v).containsExactly(3.0);
    assertThat(bucket("w", "+Inf")).extracting(Sample::v).containsExactly(3.0);
    assertThat(ingester.rejectedSamples()).isZero();
  }

  @Test
  void histogramStepSharesTheHistogramsTimestamp() {
    ingester.write("r", histogram(40, List.of(1.0), List.of(2.0)));
    // Same wall time as step 40's: both histogram series move on by the same millisecond.
    ingester.write(
        "r", new HistogramPoint("h", 60, T0 + 40, 0, 1, 2, 0, 0, List.of(1.0), List.of(2.0)));
    ingester.commit();

    long t = 1_700_000_000_000L + 40_000;
    assertThat(storage.samples(series("tensorboard_histogram_step", "h", "r")))
        .containsExactly(new Sample(t, 40), new Sample(t + 1, 60));
    assertThat(storage.samples(series("tensorboard_histogram_count", "h", "r")))
        .extracting(Sample::t)
        .containsExactly(t, t + 1);
  }

  @Test
  void aBoundMissingFromALaterStepStillGetsItsCumulativeCount() {
    ingester.write("r", histogram(0, List.of(1.0, 2.0), List.of(1.0, 1.0)));
    ingester.write("r", histogram(1, List.of(3.0), List.of(4.0)));
    ingester.commit();

    assertThat(bucket("h", "1")).extracting(Sample::v).containsExactly(1.0, 0.0);
    assertThat(bucket("h", "2")).extracting(Sample::v).containsExactly(2.0, 0.0);
    assertThat(bucket("h", "3")).extracting(Sample::v).containsExactly(4.0);
    assertThat(bucket("h", "+Inf")).extracting(Sample::v).containsExactly(2.0, 4.0);
    // The histograms plugin's [k,3] form has no sum: no sample rather than NaN.
    assertThat(storage.samples(series("tensorboard_histogram_sum", "h", "r"))).isEmpty();
  }

  @Test
  void withoutSideStoresTextsImagesAndHParamsAreCountedAndOnlyUnsupportedValuesSkipped() {
    ingester.write("r", new TextPoint("notes/text_summary", 0, T0, List.of("hi")));
    ingester.write("r", new ImagePoint("img", 0, T0, 0, 1, 1, 3, new byte[0]));
    ingester.write("r", sessionStart(Map.of("lr", 0.1)));
    ingester.write("r", new SkippedValue("pr", 0, T0, "pr_curves", "unsupported"));
    ingester.commit();

    assertThat(ingester.textPoints()).isEqualTo(1);
    assertThat(ingester.imagePoints()).isEqualTo(1);
    assertThat(ingester.hparamsPoints()).isEqualTo(1);
    assertThat(ingester.skipped()).isEqualTo(1);
    assertThat(storage.sampleCount()).isZero();
  }

  @Test
  void imagesAndHParamsGoToTheirStoresAndASubRunsHParamsToItsParent(@TempDir Path dataDir) {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    try (FileImageStore images = FileImageStore.open(dataDir, "logs");
        FileHParamsStore hparams = FileHParamsStore.open(dataDir, "logs")) {
      TensorBoardIngester withStores =
          new TensorBoardIngester(storage, new SideStores(null, images, hparams), "logs", 3);
      withStores.discovered(
          new TensorBoardRun("r/1700000000.5", dataDir, List.of(), Optional.of("r")));
      withStores.write("r", new ImagePoint("img", 4, T0, 1, 8, 6, 3, png));
      withStores.write("r/1700000000.5", sessionStart(Map.of("lr", 0.1, "opt", "adam")));
      withStores.write("other", sessionStart(Map.of("lr", 0.2)));
      withStores.commit();

      assertThat(images.list("r", "img", 0, 9))
          .containsExactly(new StoredImage("r", "img", 4, T0, 1, 8, 6, 3, "image/png", 8));
      assertThat(hparams.runs())
          .extracting(RunHParams::run, RunHParams::hparams)
          .containsExactly(
              tuple("other", Map.of("lr", 0.2)), tuple("r", Map.of("lr", 0.1, "opt", "adam")));
      assertThat(withStores.skipped()).isZero();
      assertThat(storage.sampleCount()).isZero();
    }
  }

  @Test
  void commitsOnceABatchIsFullKeepingAPointsSamplesTogether() {
    for (int step = 0; step < 5; step++) {
      ingester.write(".", new ScalarPoint("x", step, T0 + step, step));
    }
    // 10 samples at a batch size of 3, two per point: committed after the second and the fourth
    // point, which took the pending samples to 4; the fifth point's two wait.
    assertThat(storage.commits).isEqualTo(2);
    assertThat(storage.sampleCount()).isEqualTo(8);
    ingester.commit();
    assertThat(storage.sampleCount()).isEqualTo(10);
  }

  private static HParamsPoint sessionStart(Map<String, Object> values) {
    return new HParamsPoint(
        "_hparams_/session_start_info",
        0,
        T0,
        HParamsPoint.Kind.SESSION_START,
        values,
        List.of(),
        List.of(),
        "",
        "",
        0);
  }

  private static HistogramPoint histogram(long step, List<Double> limits, List<Double> counts) {
    double n = counts.stream().mapToDouble(Double::doubleValue).sum();
    return new HistogramPoint(
        "h", step, T0 + step, 0, 3, n, Double.NaN, Double.NaN, limits, counts);
  }

  private List<Sample> bucket(String tag, String le) {
    return storage.samples(
        series("tensorboard_histogram_bucket", tag, "r").toBuilder().set("le", le).build());
  }

  private static Labels series(String metric, String tag, String run) {
    return Labels.of("__name__", metric, "tag", tag, "run", run, "logdir", "logs");
  }
}
