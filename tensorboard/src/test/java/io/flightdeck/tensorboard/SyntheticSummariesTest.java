package io.flightdeck.tensorboard;

import static io.flightdeck.tensorboard.EventBytes.littleEndianDoubles;
import static io.flightdeck.tensorboard.EventBytes.littleEndianFloats;
import static io.flightdeck.tensorboard.EventBytes.message;
import static io.flightdeck.tensorboard.EventBytes.summaryEvent;
import static io.flightdeck.tensorboard.EventBytes.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * SYNTHETIC: encodings for which no public fixture exists (TF2/Keras tensor summaries, text,
 * images, hparams), built here byte by byte from TensorBoard's field numbers as described in {@code
 * shared/docs/tfevents-format.md} sections 2 and 3.
 */
class SyntheticSummariesTest {
  private static final int DT_FLOAT = 1;
  private static final int DT_DOUBLE = 2;
  private static final int DT_STRING = 7;
  private static final byte[] NO_CONTENT = new byte[0];

  @TempDir Path dir;

  /** A TensorProto with a dtype, a shape and whatever value fields the caller adds. */
  private static Consumer<EventBytes> tensor(int dtype, long[] shape, Consumer<EventBytes> values) {
    return v ->
        v.message(
            8,
            t -> {
              t.varint(1, dtype);
              t.message(
                  2,
                  s -> {
                    for (long size : shape) {
                      s.message(2, d -> d.varint(1, size));
                    }
                  });
              values.accept(t);
            });
  }

  private CollectingListener read(byte[]... events) throws IOException {
    byte[][] all = new byte[events.length + 1][];
    all[0] = EventBytes.fileVersionEvent();
    System.arraycopy(events, 0, all, 1, events.length);
    Path file =
        Records.write(dir, "events.out.tfevents.1589876543.host.12345.5.v2", Records.frame(all));
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = new EventFileReader(file).poll(listener);
    assertThat(listener.corruptions).isEmpty();
    assertThat(progress.records()).isEqualTo(all.length);
    return listener;
  }

  @Test
  void tf2ScalarsInTensorContentWithMetadataOnlyOnTheFirstValue() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                100.5,
                0,
                value(
                    "epoch_loss",
                    "scalars",
                    NO_CONTENT,
                    tensor(
                        DT_FLOAT,
                        new long[0],
                        t -> t.bytes(4, littleEndianFloats(0.75f).toByteArray())))),
            summaryEvent(
                101.5,
                1,
                value(
                    "epoch_loss",
                    null,
                    null,
                    tensor(
                        DT_FLOAT,
                        new long[0],
                        t -> t.bytes(4, littleEndianFloats(0.5f).toByteArray())))));
    assertThat(listener.of(ScalarPoint.class))
        .containsExactly(
            new ScalarPoint("epoch_loss", 0, 100.5, 0.75),
            new ScalarPoint("epoch_loss", 1, 101.5, 0.5));
  }

  @Test
  void newStyleScalarsInFloatValAndDoubleVal() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                3,
                value(
                    "f",
                    "scalars",
                    NO_CONTENT,
                    tensor(DT_FLOAT, new long[0], t -> t.packedFloats(5, 2.5f))),
                value(
                    "d",
                    "scalars",
                    NO_CONTENT,
                    tensor(DT_DOUBLE, new long[0], t -> t.packedDoubles(6, 0.1))),
                value(
                    "unpacked",
                    "scalars",
                    NO_CONTENT,
                    tensor(DT_FLOAT, new long[0], t -> t.fixed32Float(5, -1f))),
                value(
                    "dc",
                    "scalars",
                    NO_CONTENT,
                    tensor(
                        DT_DOUBLE,
                        new long[0],
                        t -> t.bytes(4, littleEndianDoubles(1e-9).toByteArray())))));
    assertThat(listener.of(ScalarPoint.class))
        .extracting(ScalarPoint::tag, ScalarPoint::value)
        .containsExactly(
            tuple("f", 2.5), tuple("d", 0.1), tuple("unpacked", -1.0), tuple("dc", 1e-9));
  }

  @Test
  void tf2HistogramTensorsBecomeBuckets() throws IOException {
    double[] rows = {0.0, 1.0, 3, 1.0, 2.5, 4, 2.5, 4.0, 1};
    CollectingListener listener =
        read(
            summaryEvent(
                7,
                10,
                value(
                    "dense/kernel_0",
                    "histograms",
                    NO_CONTENT,
                    tensor(
                        DT_DOUBLE,
                        new long[] {3, 3},
                        t -> t.bytes(4, littleEndianDoubles(rows).toByteArray())))),
            summaryEvent(
                8,
                11,
                value(
                    "dense/kernel_0",
                    null,
                    null,
                    tensor(DT_DOUBLE, new long[] {1, 3}, t -> t.packedDoubles(6, -1, 1, 5)))),
            summaryEvent(
                9,
                12,
                value(
                    "dense/kernel_0", null, null, tensor(DT_DOUBLE, new long[] {0, 3}, t -> {}))));
    List<HistogramPoint> points = listener.of(HistogramPoint.class);
    assertThat(points).hasSize(3);
    HistogramPoint first = points.get(0);
    assertThat(first.step()).isEqualTo(10);
    assertThat(first.bucketLimits()).containsExactly(1.0, 2.5, 4.0);
    assertThat(first.bucketCounts()).containsExactly(3.0, 4.0, 1.0);
    assertThat(first.min()).isEqualTo(0.0);
    assertThat(first.max()).isEqualTo(4.0);
    assertThat(first.num()).isEqualTo(8.0);
    assertThat(first.sum()).isNaN();
    assertThat(points.get(1).bucketCounts()).containsExactly(5.0);
    assertThat(points.get(1).min()).isEqualTo(-1.0);
    assertThat(points.get(2).bucketLimits()).isEmpty();
    assertThat(points.get(2).num()).isZero();
  }

  @Test
  void histogramTensorWithAWrongShapeIsSkipped() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                1,
                value(
                    "h",
                    "histograms",
                    NO_CONTENT,
                    tensor(DT_DOUBLE, new long[] {2, 3}, t -> t.packedDoubles(6, 1, 2, 3)))));
    assertThat(listener.of(SkippedValue.class))
        .singleElement()
        .satisfies(s -> assertThat(s.plugin()).isEqualTo("histograms"));
  }

  @Test
  void legacyHistogramProtoKeepsAllFields() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                2,
                value(
                    "w",
                    null,
                    null,
                    v ->
                        v.message(
                            5,
                            h ->
                                h.fixed64Double(1, -1)
                                    .fixed64Double(2, 3)
                                    .fixed64Double(3, 4)
                                    .fixed64Double(4, 5)
                                    .fixed64Double(5, 11)
                                    .packedDoubles(6, 0, 1, Double.MAX_VALUE)
                                    .fixed64Double(7, 1)
                                    .fixed64Double(7, 2)
                                    .fixed64Double(7, 1)))));
    assertThat(listener.of(HistogramPoint.class))
        .containsExactly(
            new HistogramPoint(
                "w",
                2,
                1,
                -1,
                3,
                4,
                5,
                11,
                List.of(0.0, 1.0, Double.MAX_VALUE),
                List.of(1.0, 2.0, 1.0)));
  }

  @Test
  void textSummariesAsWrittenByPyTorchAndTf2() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                4,
                value(
                    "notes/text_summary",
                    "text",
                    NO_CONTENT,
                    tensor(DT_STRING, new long[] {1}, t -> t.string(8, "hello **world** ✓"))),
                value(
                    "table",
                    "text",
                    NO_CONTENT,
                    tensor(
                        DT_STRING,
                        new long[] {2, 2},
                        t -> t.string(8, "a").string(8, "b").string(8, "c").string(8, "d")))));
    assertThat(listener.of(TextPoint.class))
        .containsExactly(
            new TextPoint("notes/text_summary", 4, 1, List.of("hello **world** ✓")),
            new TextPoint("table", 4, 1, List.of("a", "b", "c", "d")));
  }

  @Test
  void imagesLegacyAndTensorForm() throws IOException {
    byte[] png = {(byte) 0x89, 'P', 'N', 'G', 1, 2, 3};
    byte[] gif = "GIF89a".getBytes(StandardCharsets.US_ASCII);
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                5,
                value(
                    "legacy",
                    null,
                    null,
                    v -> v.message(4, i -> i.varint(1, 2).varint(2, 3).varint(3, 4).bytes(4, png))),
                value(
                    "tf2",
                    "images",
                    NO_CONTENT,
                    tensor(
                        DT_STRING,
                        new long[] {4},
                        t -> t.string(8, "640").string(8, "480").bytes(8, png).bytes(8, gif)))));
    List<ImagePoint> images = listener.of(ImagePoint.class);
    assertThat(images)
        .extracting(
            ImagePoint::tag,
            ImagePoint::index,
            ImagePoint::width,
            ImagePoint::height,
            ImagePoint::colorspace)
        .containsExactly(
            tuple("legacy", 0, 3, 2, 4),
            tuple("tf2", 0, 640, 480, 0),
            tuple("tf2", 1, 640, 480, 0));
    assertThat(images.get(0).encoded()).isEqualTo(png);
    assertThat(images.get(2).encoded()).isEqualTo(gif);
  }

  @Test
  void hparamsSessionStartExperimentAndEndAsPyTorchWritesThem() throws IOException {
    byte[] start =
        message(
            d ->
                d.varint(1, 0)
                    .message(
                        3,
                        s ->
                            s.message(
                                    1,
                                    e ->
                                        e.string(1, "lr")
                                            .message(2, v -> v.fixed64Double(2, 0.001)))
                                .message(
                                    1,
                                    e ->
                                        e.string(1, "optimizer")
                                            .message(2, v -> v.string(3, "adam")))
                                .message(1, e -> e.string(1, "amp").message(2, v -> v.varint(4, 1)))
                                .string(4, "group-a")
                                .fixed64Double(5, 1.7e9)));
    byte[] experiment =
        message(
            d ->
                d.message(
                    2,
                    x ->
                        x.message(4, h -> h.string(1, "lr"))
                            .message(4, h -> h.string(1, "optimizer"))
                            .message(5, m -> m.message(1, n -> n.string(2, "hparam/accuracy")))
                            .message(
                                5,
                                m ->
                                    m.message(
                                        1, n -> n.string(1, "validation").string(2, "loss")))));
    byte[] end = message(d -> d.message(4, e -> e.varint(1, 1).fixed64Double(2, 1.8e9)));
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                0,
                value("_hparams_/experiment", "hparams", experiment, v -> {}),
                value("_hparams_/session_start_info", "hparams", start, v -> {}),
                value("_hparams_/session_end_info", "hparams", end, v -> {})));
    List<HParamsPoint> hparams = listener.of(HParamsPoint.class);
    assertThat(hparams)
        .extracting(HParamsPoint::kind)
        .containsExactly(
            HParamsPoint.Kind.EXPERIMENT,
            HParamsPoint.Kind.SESSION_START,
            HParamsPoint.Kind.SESSION_END);
    assertThat(hparams.get(0).hparamNames()).containsExactly("lr", "optimizer");
    assertThat(hparams.get(0).metricTags()).containsExactly("hparam/accuracy", "loss");
    assertThat(hparams.get(1).hparams())
        .isEqualTo(Map.of("lr", 0.001, "optimizer", "adam", "amp", true));
    assertThat(hparams.get(1).groupName()).isEqualTo("group-a");
    assertThat(hparams.get(1).timeSeconds()).isEqualTo(1.7e9);
    assertThat(hparams.get(2).status()).isEqualTo("STATUS_SUCCESS");
    assertThat(hparams.get(2).timeSeconds()).isEqualTo(1.8e9);
  }

  @Test
  void unknownPluginsAudioAndPrCurvesAreSkippedButCounted() throws IOException {
    CollectingListener listener =
        read(
            summaryEvent(
                1,
                1,
                value(
                    "pr",
                    "pr_curves",
                    NO_CONTENT,
                    tensor(DT_FLOAT, new long[] {6, 1}, t -> t.packedFloats(5, 1, 2, 3, 4, 5, 6))),
                value(
                    "custom",
                    "my_plugin",
                    NO_CONTENT,
                    tensor(DT_FLOAT, new long[0], t -> t.packedFloats(5, 1))),
                value("sound", null, null, v -> v.message(6, a -> a.fixed32Float(1, 16000f))),
                value("nothing", null, null, v -> {})),
            summaryEvent(
                2,
                2,
                value(
                    "custom",
                    null,
                    null,
                    tensor(DT_FLOAT, new long[0], t -> t.packedFloats(5, 2)))));
    assertThat(listener.of(SkippedValue.class))
        .extracting(SkippedValue::tag, SkippedValue::plugin)
        .containsExactly(
            tuple("pr", "pr_curves"),
            tuple("custom", "my_plugin"),
            tuple("sound", "audio"),
            tuple("nothing", ""),
            tuple("custom", "my_plugin"));
    assertThat(listener.of(ScalarPoint.class)).isEmpty();
  }

  @Test
  void tagMetadataCarriesOverToTheNextFileOfTheRun() throws IOException {
    Path first =
        Records.write(
            dir,
            "events.out.tfevents.0000000001.host",
            Records.frame(
                summaryEvent(
                    1,
                    0,
                    value(
                        "acc",
                        "scalars",
                        NO_CONTENT,
                        tensor(DT_FLOAT, new long[0], t -> t.packedFloats(5, 0.5f))))));
    Path second =
        Records.write(
            dir,
            "events.out.tfevents.0000000002.host",
            Records.frame(
                summaryEvent(
                    2,
                    1,
                    value(
                        "acc",
                        null,
                        null,
                        tensor(DT_FLOAT, new long[0], t -> t.packedFloats(5, 0.75f))))));
    CollectingListener listener = new CollectingListener();
    new RunReader(new TensorBoardRun(".", dir, List.of(second, first), Optional.empty()))
        .poll(listener);
    assertThat(listener.of(ScalarPoint.class))
        .extracting(ScalarPoint::value)
        .containsExactly(0.5, 0.75);
  }
}
