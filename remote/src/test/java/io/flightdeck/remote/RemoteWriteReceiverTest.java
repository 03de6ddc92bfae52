package io.flightdeck.remote;

import static io.flightdeck.remote.WriteRequestEncoder.REQUEST_METADATA;
import static io.flightdeck.remote.WriteRequestEncoder.REQUEST_RESERVED_SOURCE;
import static io.flightdeck.remote.WriteRequestEncoder.REQUEST_TIMESERIES;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_EXEMPLARS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_HISTOGRAMS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_LABELS;
import static io.flightdeck.remote.WriteRequestEncoder.SERIES_SAMPLES;
import static io.flightdeck.remote.WriteRequestEncoder.histogram;
import static io.flightdeck.remote.WriteRequestEncoder.label;
import static io.flightdeck.remote.WriteRequestEncoder.metadata;
import static io.flightdeck.remote.WriteRequestEncoder.request;
import static io.flightdeck.remote.WriteRequestEncoder.sample;
import static io.flightdeck.remote.WriteRequestEncoder.series;
import static io.flightdeck.remote.WriteRequestEncoder.snappy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.remote.InMemoryAppendable.StoredSample;
import io.flightdeck.remote.RemoteWriteReceiver.Response;
import io.flightdeck.remote.WriteRequestEncoder.Message;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class RemoteWriteReceiverTest {
  private static final String PROTOBUF = "application/x-protobuf";
  private static final List<String> UP = List.of("__name__", "up", "job", "api");
  private static final Labels UP_LABELS = Labels.of("__name__", "up", "job", "api");

  private final InMemoryAppendable storage = new InMemoryAppendable();
  private final RemoteWriteReceiver receiver = new RemoteWriteReceiver(storage, 1 << 20);

  @AfterEach
  void everyAppenderWasCommittedOrRolledBack() {
    assertThat(storage.unfinishedAppenders()).isZero();
  }

  private Response post(Message request) {
    return receiver.handle(PROTOBUF, "snappy", snappy(request));
  }

  @Test
  void storesEverySampleWithSortedLabelsAndAnswers204() {
    Response response =
        post(
            request(
                series(
                    List.of("job", "api", "__name__", "up", "instance", "a:9100"),
                    sample(1, 1000),
                    sample(0, 2000)),
                series(List.of("__name__", "loss", "run", "7"), sample(0.25, 1500))));

    assertThat(response).isEqualTo(new Response(204, "", 3));
    Labels up = Labels.of("__name__", "up", "instance", "a:9100", "job", "api");
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(up, 1000, 1),
            StoredSample.of(up, 2000, 0),
            StoredSample.of(Labels.of("__name__", "loss", "run", "7"), 1500, 0.25));
    assertThat(storage.samples().get(0).labels().names())
        .containsExactly("__name__", "instance", "job");
    assertThat(receiver.requests()).isEqualTo(1);
  }

  @Test
  void keepsSpecialValuesBitForBit() {
    double[] values = {
      Double.NaN,
      Double.longBitsToDouble(0x7ff8000000000001L), // a NaN with its own payload
      StaleMarker.VALUE,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY,
      -0.0,
      Double.MIN_VALUE,
      -Double.MAX_VALUE
    };
    Message series = series(UP);
    for (int i = 0; i < values.length; i++) {
      series.message(SERIES_SAMPLES, sample(values[i], 1000L * (i + 1)));
    }

    assertThat(post(request(series)).status()).isEqualTo(204);

    assertThat(storage.samples())
        .extracting(StoredSample::valueBits)
        .containsExactly(
            Arrays.stream(values)
                .mapToLong(Double::doubleToRawLongBits)
                .boxed()
                .toArray(Long[]::new));
    assertThat(StaleMarker.is(Double.longBitsToDouble(storage.samples().get(2).valueBits())))
        .isTrue();
  }

  @Test
  void keepsExtremeTimestamps() {
    post(request(series(UP, sample(1, -1), sample(2, Long.MAX_VALUE), sample(3, Long.MIN_VALUE))));

    assertThat(storage.samples())
        .extracting(StoredSample::timestampMillis)
        .containsExactly(-1L, Long.MAX_VALUE, Long.MIN_VALUE);
  }

  @Test
  void storesMetadata() {
    Message request =
        new Message()
            .message(
                REQUEST_METADATA,
                metadata(1, "http_requests_total", "Requests served.", "requests"))
            .message(REQUEST_METADATA, metadata(2, "temperature", "", "celsius"));

    assertThat(post(request).status()).isEqualTo(204);

    assertThat(storage.metadata())
        .containsOnly(
            entry(
                "http_requests_total",
                new MetricMetadata(MetricType.COUNTER, "Requests served.", "requests")),
            entry("temperature", new MetricMetadata(MetricType.GAUGE, "", "celsius")));
  }

  @ParameterizedTest
  @CsvSource({
    "0, UNKNOWN",
    "1, COUNTER",
    "2, GAUGE",
    "3, HISTOGRAM",
    "4, GAUGEHISTOGRAM",
    "5, SUMMARY",
    "6, INFO",
    "7, STATESET",
    "42, UNKNOWN"
  })
  void mapsMetadataTypeNumbers(int wireType, MetricType expected) {
    post(new Message().message(REQUEST_METADATA, metadata(wireType, "m", "help", "")));

    assertThat(storage.metadata().get("m").type()).isEqualTo(expected);
  }

  @Test
  void ignoresMetadataWithoutAFamilyName() {
    assertThat(post(new Message().message(REQUEST_METADATA, metadata(1, "", "h", ""))).status())
        .isEqualTo(204);

    assertThat(storage.metadata()).isEmpty();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(
      strings = {
        "application/x-protobuf",
        "application/x-protobuf;proto=prometheus.WriteRequest",
        "application/x-protobuf; proto=prometheus.WriteRequest"
      })
  void acceptsRemoteWrite1ContentTypesAndAMissingOne(String contentType) {
    Response response =
        receiver.handle(contentType, "snappy", snappy(request(series(UP, sample(1, 1)))));

    assertThat(response.status()).isEqualTo(204);
    assertThat(storage.samples()).hasSize(1);
  }

  @Test
  void refusesRemoteWrite2With415() {
    String contentType = "application/x-protobuf;proto=io.prometheus.write.v2.Request";

    Response response =
        receiver.handle(contentType, "snappy", snappy(request(series(UP, sample(1, 1)))));

    assertThat(response.status()).isEqualTo(415);
    assertThat(response.body()).contains("\"io.prometheus.write.v2.Request\"");
    assertThat(storage.samples()).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"text/plain", "application/json", "application/protobuf"})
  void refusesOtherContentTypesWith415(String contentType) {
    Response response =
        receiver.handle(contentType, "snappy", snappy(request(series(UP, sample(1, 1)))));

    assertThat(response.status()).isEqualTo(415);
    assertThat(response.body()).contains("\"" + contentType + "\"");
    assertThat(storage.samples()).isEmpty();
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"snappy", "SNAPPY"})
  void acceptsSnappyOrNoContentEncoding(String contentEncoding) {
    Response response =
        receiver.handle(PROTOBUF, contentEncoding, snappy(request(series(UP, sample(1, 1)))));

    assertThat(response.status()).isEqualTo(204);
  }

  @ParameterizedTest
  @ValueSource(strings = {"gzip", "zstd", "identity"})
  void refusesOtherContentEncodingsWith415(String contentEncoding) {
    Response response =
        receiver.handle(PROTOBUF, contentEncoding, snappy(request(series(UP, sample(1, 1)))));

    assertThat(response.status()).isEqualTo(415);
    assertThat(response.body()).contains(contentEncoding);
    assertThat(storage.samples()).isEmpty();
  }

  @Test
  void uncompressedBodyIs400() {
    // A sender that forgot to compress: a valid protobuf, but not snappy.
    byte[] body = request(series(UP, sample(1, 1))).toByteArray();

    Response response = receiver.handle(PROTOBUF, "snappy", body);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).startsWith("snappy decode error");
  }

  @Test
  void emptyBodyIs400() {
    assertThat(receiver.handle(PROTOBUF, "snappy", new byte[0]).status()).isEqualTo(400);
  }

  @Test
  void snappyOfGarbageIs400ProtobufDecodeError() {
    // 'n' is the tag of field 13 with wire type 6, which does not exist.
    byte[] garbage = "not a protobuf".getBytes(StandardCharsets.US_ASCII);

    Response response = receiver.handle(PROTOBUF, "snappy", snappy(garbage));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).startsWith("protobuf decode error");
  }

  @Test
  void truncatedRequestIs400AndRollsBackTheSeriesBeforeTheCut() {
    byte[] whole =
        request(series(UP, sample(1, 1)), series(List.of("__name__", "b"), sample(2, 2)))
            .toByteArray();
    byte[] truncated = Arrays.copyOf(whole, whole.length - 3);

    Response response = receiver.handle(PROTOBUF, "snappy", snappy(truncated));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).startsWith("protobuf decode error");
    assertThat(storage.samples()).isEmpty();
  }

  @Test
  void labelRunningPastItsSeriesIs400() {
    // The series' own length is right; the label inside claims 50 bytes but has 3.
    byte[] raw = {(REQUEST_TIMESERIES << 3) | 2, 5, (SERIES_LABELS << 3) | 2, 50, 10, 1, 'a'};

    Response response = receiver.handle(PROTOBUF, "snappy", snappy(raw));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).startsWith("protobuf decode error");
  }

  @Test
  void bodyOverTheLimitIs413() {
    byte[] body = snappy(request(series(UP, sample(1, 1), sample(2, 2))));
    RemoteWriteReceiver atLimit = new RemoteWriteReceiver(storage, body.length);
    RemoteWriteReceiver belowLimit = new RemoteWriteReceiver(storage, body.length - 1);

    Response refused = belowLimit.handle(PROTOBUF, "snappy", body);

    assertThat(refused.status()).isEqualTo(413);
    assertThat(refused.body()).endsWith("exceeds the limit of " + (body.length - 1));
    assertThat(storage.samples()).isEmpty();
    assertThat(atLimit.handle(PROTOBUF, "snappy", body).status()).isEqualTo(204);
  }

  @Test
  void decompressedBodyOverTheLimitIs413() {
    // Highly repetitive, so the compressed body stays far below the limit.
    Message request =
        request(series(List.of("__name__", "m", "big", "x".repeat(10_000)), sample(1, 1)));
    byte[] body = snappy(request);
    RemoteWriteReceiver small = new RemoteWriteReceiver(storage, 5_000);

    Response response = small.handle(PROTOBUF, "snappy", body);

    assertThat(body.length).isLessThan(5_000);
    assertThat(response.status()).isEqualTo(413);
    assertThat(response.body()).startsWith("decompressed body");
    assertThat(storage.samples()).isEmpty();
  }

  static Stream<Arguments> invalidLabelSets() {
    return Stream.of(
        Arguments.of(List.of("job", "api"), "invalid metric name or labels, got {job=\"api\"}"),
        Arguments.of(
            List.of("__name__", "", "job", "api"),
            "invalid metric name or labels, got {__name__=\"\", job=\"api\"}"),
        Arguments.of(
            List.of("__name__", "up", "job", "b", "job", "a"),
            "invalid labels for series, labels {__name__=\"up\", job=\"b\", job=\"a\"},"
                + " duplicated label job"),
        Arguments.of(
            List.of("z", "1", "__name__", "up", "__name__", "down"),
            "invalid labels for series, labels {__name__=\"up\", __name__=\"down\", z=\"1\"},"
                + " duplicated label __name__"),
        Arguments.of(
            List.of("__name__", "up", "", "x"),
            "invalid metric name or labels, got {\"\"=\"x\", __name__=\"up\"}"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("invalidLabelSets")
  void seriesWithInvalidLabelsAre400NamingThemWhileTheOthersAreStored(
      List<String> invalid, String problem) {
    Response response =
        post(
            request(
                series(UP, sample(1, 1)),
                series(invalid, sample(2, 2), sample(3, 3)),
                series(UP, sample(4, 4))));

    assertThat(response)
        .isEqualTo(
            new Response(
                400,
                "1 series (2 samples) with invalid labels were skipped, the others were stored: "
                    + problem,
                2));
    assertThat(receiver.invalidSeries()).isEqualTo(1);
    assertThat(storage.samples())
        .containsExactly(StoredSample.of(UP_LABELS, 1, 1), StoredSample.of(UP_LABELS, 4, 4));
  }

  @Test
  void rejectedSamplesAre400NamingCountAndCauseWhileTheOthersAreStored() {
    storage.reject(sample -> sample.timestampMillis() == 2000);
    Labels loss = Labels.of("__name__", "loss");

    Response response =
        post(
            request(
                series(UP, sample(1, 1000), sample(2, 2000), sample(3, 3000)),
                series(List.of("__name__", "loss"), sample(0.5, 1000))));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).contains("1 of 4 samples").contains("out of order sample");
    assertThat(response.body()).contains("timestamp=2000");
    assertThat(response.samplesWritten()).isEqualTo(3);
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(UP_LABELS, 1000, 1),
            StoredSample.of(UP_LABELS, 3000, 3),
            StoredSample.of(loss, 1000, 0.5));
  }

  @Test
  void manyProblemsAreCountedAndTheFirstFewNamed() {
    storage.reject(sample -> sample.timestampMillis() < 0);
    Message request = request(series(UP, sample(1, 1), sample(2, -1)));
    for (int i = 0; i < 8; i++) {
      request.message(REQUEST_TIMESERIES, series(List.of("job", "j" + i), sample(i, i)));
    }

    Response response = post(request);

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body())
        .startsWith(
            "1 of 2 samples were rejected; 8 series (8 samples) with invalid labels were skipped,"
                + " the others were stored: ")
        .contains("invalid metric name or labels, got {job=\"j3\"}")
        .doesNotContain("j4")
        .endsWith("; and 4 more");
    assertThat(storage.samples()).containsExactly(StoredSample.of(UP_LABELS, 1, 1));
  }

  @Test
  void manyRejectionsStillReportTheirTrueCount() {
    storage.reject(sample -> sample.timestampMillis() < 0);
    Message series = series(UP, sample(1, 1));
    for (int i = 1; i <= 20; i++) {
      series.message(SERIES_SAMPLES, sample(i, -i));
    }

    Response response = post(request(series));

    assertThat(response.status()).isEqualTo(400);
    assertThat(response.body()).startsWith("20 of 21 samples");
    assertThat(storage.samples()).containsExactly(StoredSample.of(UP_LABELS, 1, 1));
  }

  @Test
  void unavailableStorageOnCommitIs503AndStoresNothing() {
    storage.failCommits();

    Response response = post(request(series(UP, sample(1, 1))));

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).contains("disk full while committing");
    assertThat(response.samplesWritten()).isZero();
    assertThat(storage.samples()).isEmpty();
  }

  @Test
  void unavailableStorageOnAppendIs503() {
    storage.failAppends();

    Response response = post(request(series(UP, sample(1, 1))));

    assertThat(response.status()).isEqualTo(503);
    assertThat(response.body()).contains("disk full");
  }

  @Test
  void countsNativeHistogramsAndStoresTheFloatSamplesBesideThem() {
    Message mixed =
        series(UP, sample(1, 1000))
            .message(SERIES_HISTOGRAMS, histogram(3, 4.5, 1000))
            .message(SERIES_HISTOGRAMS, histogram(5, 7.5, 2000));
    Message histogramsOnly =
        series(List.of("__name__", "latency")).message(SERIES_HISTOGRAMS, histogram(1, 1, 1000));

    Response response = post(request(mixed, histogramsOnly));

    assertThat(response).isEqualTo(new Response(204, "", 1));
    assertThat(receiver.unsupportedHistograms()).isEqualTo(3);
    assertThat(storage.samples()).containsExactly(StoredSample.of(UP_LABELS, 1000, 1));
  }

  @Test
  void labelsAfterTheSamplesStillNameThem() {
    // Protobuf allows any field order; the second series must not inherit the first one's labels.
    Message labelsLast =
        new Message()
            .message(SERIES_SAMPLES, sample(7, 7000))
            .message(SERIES_SAMPLES, sample(8, 8000))
            .message(SERIES_LABELS, label("__name__", "late"))
            .message(SERIES_LABELS, label("k", "v"));

    assertThat(post(request(series(UP, sample(1, 1000)), labelsLast)).status()).isEqualTo(204);

    Labels late = Labels.of("__name__", "late", "k", "v");
    assertThat(storage.samples())
        .containsExactly(
            StoredSample.of(UP_LABELS, 1000, 1),
            StoredSample.of(late, 7000, 7),
            StoredSample.of(late, 8000, 8));
  }

  @Test
  void repeatedFieldsMayBeInterleaved() {
    Message interleaved =
        new Message()
            .message(SERIES_LABELS, label("job", "api"))
            .message(SERIES_SAMPLES, sample(1, 1000))
            .message(SERIES_LABELS, label("__name__", "up"))
            .message(SERIES_SAMPLES, sample(2, 2000));
    Message request =
        new Message()
            .message(REQUEST_METADATA, metadata(2, "up", "1 if the target is up", ""))
            .message(REQUEST_TIMESERIES, interleaved)
            .message(REQUEST_METADATA, metadata(5, "rpc_seconds", "", "seconds"));

    assertThat(post(request).status()).isEqualTo(204);

    assertThat(storage.samples())
        .containsExactly(StoredSample.of(UP_LABELS, 1000, 1), StoredSample.of(UP_LABELS, 2000, 2));
    assertThat(storage.metadata()).containsOnlyKeys("up", "rpc_seconds");
  }

  @Test
  void skipsUnknownFieldsAtEveryLevel() {
    Message label = label("__name__", "up").int64(3, 99).string(15, "ignored");
    Message sample = sample(1.5, 1000).fixed32(3, 7).string(100, "future");
    Message exemplar = new Message().message(1, label("trace_id", "abc")).doubleField(2, 1);
    Message series =
        new Message()
            .message(SERIES_LABELS, label)
            .message(SERIES_LABELS, label("job", "api"))
            .message(SERIES_EXEMPLARS, exemplar)
            .message(SERIES_SAMPLES, sample)
            .fixed32(9, 1)
            .int64(1000, -1);
    Message request =
        new Message()
            .string(REQUEST_RESERVED_SOURCE, "cortex")
            .message(REQUEST_TIMESERIES, series)
            .message(REQUEST_METADATA, metadata(1, "up", "", "").string(3, "unused field"))
            .doubleField(16, 3.0);

    Response response = post(request);

    assertThat(response.status()).isEqualTo(204);
    assertThat(storage.samples()).containsExactly(StoredSample.of(UP_LABELS, 1000, 1.5));
    assertThat(storage.metadata()).containsOnlyKeys("up");
  }

  @Test
  void emptyRequestIs204() {
    Response response = post(new Message());

    assertThat(response).isEqualTo(new Response(204, "", 0));
  }
}
