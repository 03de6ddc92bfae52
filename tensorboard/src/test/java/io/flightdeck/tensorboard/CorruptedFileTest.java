package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage of every kind, made by cutting or flipping bytes of a real file (101 records: the version
 * record, then {@code strict/foo} at steps 0, 5 ... 495). No public fixture is damaged.
 */
class CorruptedFileTest {
  private static final Path STRICT =
      SharedFixtures.fixture(
          "tfevents/tensorboard-reducer/tests/runs/strict/run_1/"
              + "events.out.tfevents.1622543341.janoshs-mbp.lan.86862.0");

  @TempDir Path dir;
  private byte[] original;
  private List<Integer> offsets;

  @BeforeEach
  void load() throws IOException {
    original = Files.readAllBytes(STRICT);
    offsets = Records.offsets(original);
    assertThat(offsets).hasSize(101);
  }

  @Test
  void maskedCrcMatchesTensorBoardsTestVector() {
    byte[] payload = ("\u001a\u0011CRC test, one two").getBytes(StandardCharsets.ISO_8859_1);
    assertThat(MaskedCrc32c.of(payload, 0, payload.length)).isEqualTo(0x5794d08a);
  }

  @Test
  void truncatedLengthIsIncompleteAndResumesWhenTheRestArrives() throws IOException {
    int record = offsets.get(40);
    Path file = Records.write(dir, "events.out.tfevents.1", Arrays.copyOf(original, record + 5));
    EventFileReader reader = new EventFileReader(file);
    CollectingListener listener = new CollectingListener();

    ReadProgress first = reader.poll(listener);
    assertThat(first.incomplete()).isTrue();
    assertThat(first.offset()).isEqualTo(record);
    assertThat(first.pendingBytes()).isEqualTo(5);
    assertThat(first.records()).isEqualTo(40);
    assertThat(listener.corruptions).isEmpty();

    Records.append(file, Arrays.copyOfRange(original, record + 5, original.length));
    ReadProgress second = reader.poll(listener);
    assertThat(second.incomplete()).isFalse();
    assertThat(second.records()).isEqualTo(61);
    assertThat(listener.corruptions).isEmpty();
    assertThat(listener.of(ScalarPoint.class)).hasSize(100);
  }

  @Test
  void truncatedDataIsIncompleteNotCorrupt() throws IOException {
    int record = offsets.get(70);
    Path file = Records.write(dir, "events.out.tfevents.1", Arrays.copyOf(original, record + 20));
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = new EventFileReader(file).poll(listener);
    assertThat(progress.incomplete()).isTrue();
    assertThat(progress.offset()).isEqualTo(record);
    assertThat(listener.corruptions).isEmpty();
    assertThat(listener.of(ScalarPoint.class)).hasSize(69);
  }

  @Test
  void badLengthCrcInTheMiddleIsReportedAndTheReaderResynchronises() throws IOException {
    int record = offsets.get(50);
    byte[] damaged = original.clone();
    damaged[record + 9] ^= 0x40; // inside the stored CRC of the length
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(damaged, listener);

    assertThat(listener.corruptions)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_LENGTH_CRC);
              assertThat(c.offset()).isEqualTo(record);
              assertThat(c.file().getFileName().toString()).contains("tfevents");
            });
    assertThat(progress.records()).isEqualTo(100);
    assertThat(progress.incomplete()).isFalse();
    List<ScalarPoint> points = listener.of(ScalarPoint.class);
    assertThat(points).hasSize(99);
    assertThat(points).extracting(ScalarPoint::step).doesNotContain(49L * 5).contains(50L * 5);
  }

  @Test
  void badLengthValueIsCaughtByItsCrc() throws IOException {
    int record = offsets.get(10);
    byte[] damaged = original.clone();
    damaged[record + 1] = 0x7f; // length becomes huge; its CRC no longer matches
    CollectingListener listener = new CollectingListener();
    read(damaged, listener);
    assertThat(listener.corruptions)
        .extracting(Corruption::kind, Corruption::offset)
        .containsExactly(tuple(Corruption.Kind.BAD_LENGTH_CRC, (long) record));
    assertThat(listener.of(ScalarPoint.class)).hasSize(99);
  }

  @Test
  void badDataCrcInTheMiddleSkipsOnlyThatRecord() throws IOException {
    int record = offsets.get(30);
    byte[] damaged = original.clone();
    damaged[record + 14] ^= 0x01;
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(damaged, listener);

    assertThat(listener.corruptions)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_DATA_CRC);
              assertThat(c.offset()).isEqualTo(record);
              assertThat(c.toString()).contains("BAD_DATA_CRC", ":" + record);
            });
    assertThat(progress.records()).isEqualTo(100);
    assertThat(listener.of(ScalarPoint.class)).hasSize(99);
  }

  @Test
  void oversizedLengthWithAValidCrcIsReportedAndSkipped() throws IOException {
    ByteBuffer header = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
    header.putLong(1L << 40);
    header.putInt(MaskedCrc32c.of(header.array(), 0, 8));
    byte[] bytes = concat(Arrays.copyOf(original, offsets.get(3)), header.array());
    bytes = concat(bytes, Arrays.copyOfRange(original, offsets.get(3), original.length));
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(bytes, listener);
    assertThat(listener.corruptions)
        .extracting(Corruption::kind, Corruption::offset)
        .containsExactly(tuple(Corruption.Kind.OVERSIZED_RECORD, (long) offsets.get(3)));
    assertThat(listener.of(ScalarPoint.class)).hasSize(100);
    assertThat(progress.incomplete()).isFalse();
  }

  @Test
  void garbageFileGivesOneCorruptionAndNoPoints() throws IOException {
    byte[] garbage = new byte[5000];
    new Random(42).nextBytes(garbage);
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(garbage, listener);
    assertThat(listener.corruptions)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_LENGTH_CRC);
              assertThat(c.offset()).isZero();
            });
    assertThat(listener.points).isEmpty();
    assertThat(progress.records()).isZero();
    // The last 11 bytes cannot be ruled out as the start of a record yet.
    assertThat(progress.pendingBytes()).isLessThan(12);
  }

  @Test
  void truncatedProtobufInsideAValidRecordIsABadEvent() throws IOException {
    byte[] event =
        EventBytes.summaryEvent(
            1.0, 7, EventBytes.value("x", null, null, v -> v.fixed32Float(2, 1f)));
    byte[] cut = Arrays.copyOf(event, event.length - 3);
    byte[] bytes = concat(Arrays.copyOf(original, offsets.get(2)), Records.frame(cut));
    bytes = concat(bytes, Arrays.copyOfRange(original, offsets.get(2), original.length));
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(bytes, listener);
    assertThat(listener.corruptions)
        .singleElement()
        .satisfies(
            c -> {
              assertThat(c.kind()).isEqualTo(Corruption.Kind.BAD_EVENT);
              assertThat(c.offset()).isEqualTo((long) offsets.get(2));
            });
    assertThat(listener.of(ScalarPoint.class)).hasSize(100);
    assertThat(progress.records()).isEqualTo(101);
  }

  @Test
  void resynchronisationWaitsForAPartlyWrittenRecordAndReportsTheDamageOnce() throws IOException {
    int damagedRecord = offsets.get(20);
    int cut = offsets.get(22) + 10;
    byte[] damaged = original.clone();
    damaged[damagedRecord + 2] ^= 0x10;
    Path file = Records.write(dir, "events.out.tfevents.1", Arrays.copyOf(damaged, cut));
    EventFileReader reader = new EventFileReader(file);
    CollectingListener listener = new CollectingListener();

    ReadProgress first = reader.poll(listener);
    assertThat(first.incomplete()).isTrue();
    assertThat(listener.of(ScalarPoint.class)).hasSize(20);

    Records.append(file, Arrays.copyOfRange(damaged, cut, damaged.length));
    reader.poll(listener);
    assertThat(listener.corruptions).hasSize(1);
    assertThat(listener.of(ScalarPoint.class)).hasSize(99);
  }

  @Test
  void headerOnlyFileHasAVersionAndNothingElse() {
    Path file =
        SharedFixtures.fixture(
            "tfevents/tensorboard-flight-analysis/test_logs/flight_viz_test/"
                + "events.out.tfevents.1761084961.MacBookPro.lan.85844.0");
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = new EventFileReader(file).poll(listener);
    assertThat(listener.versions).containsExactly("brain.Event:2");
    assertThat(listener.points).isEmpty();
    assertThat(listener.corruptions).isEmpty();
    assertThat(progress).isEqualTo(new ReadProgress(file, 88, 1, 0));
  }

  @Test
  void emptyFileIsNeitherIncompleteNorCorrupt() throws IOException {
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = read(new byte[0], listener);
    assertThat(progress.incomplete()).isFalse();
    assertThat(progress.records()).isZero();
  }

  @Test
  void missingFileIsAnEventFileException() {
    EventFileReader reader = new EventFileReader(dir.resolve("events.out.tfevents.gone"));
    assertThatThrownBy(() -> reader.poll(new CollectingListener()))
        .isInstanceOf(EventFileException.class)
        .hasMessageContaining("file=");
  }

  private ReadProgress read(byte[] bytes, CollectingListener listener) throws IOException {
    return new EventFileReader(Records.write(dir, "events.out.tfevents.1", bytes)).poll(listener);
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
