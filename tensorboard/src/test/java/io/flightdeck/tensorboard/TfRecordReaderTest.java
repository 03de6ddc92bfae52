package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Framing through {@link FileWindow}: records across refills, records larger than its buffer. */
class TfRecordReaderTest {
  @TempDir Path dir;

  @Test
  void readsRecordsAcrossRefillsAndLargerThanTheBuffer() throws IOException {
    Random random = new Random(7);
    List<byte[]> payloads = new ArrayList<>();
    for (int i = 0; i < 700; i++) {
      payloads.add(bytes(random, random.nextInt(5_000)));
    }
    payloads.add(350, bytes(random, FileWindow.MAX_INITIAL_BYTES * 5 / 2));
    byte[] file = Records.frame(payloads.toArray(byte[][]::new));
    Path path = Records.write(dir, "events", file);

    List<TfRecordReader.Step> steps = readAll(path);

    assertThat(steps).hasSize(payloads.size() + 1);
    List<Integer> offsets = Records.offsets(file);
    for (int i = 0; i < payloads.size(); i++) {
      TfRecordReader.Record record = (TfRecordReader.Record) steps.get(i);
      assertThat(record.offset()).isEqualTo(offsets.get(i).longValue());
      assertThat(copy(record)).isEqualTo(payloads.get(i));
    }
    assertThat(steps.getLast()).isEqualTo(new TfRecordReader.End(file.length, 0));
  }

  @Test
  void resyncScansGarbageLongerThanTheBuffer() throws IOException {
    Random random = new Random(11);
    byte[] before = Records.frame(bytes(random, 100));
    byte[] garbage = bytes(random, FileWindow.MAX_INITIAL_BYTES + 12_345);
    byte[] after = bytes(random, 200);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(before);
    out.writeBytes(garbage);
    out.writeBytes(Records.frame(after));
    Path path = Records.write(dir, "events", out.toByteArray());

    List<TfRecordReader.Step> steps = readAll(path);

    assertThat(steps).hasSize(4);
    assertThat(((TfRecordReader.Damaged) steps.get(1)).corruption().offset())
        .isEqualTo((long) before.length);
    TfRecordReader.Record found = (TfRecordReader.Record) steps.get(2);
    assertThat(found.offset()).isEqualTo((long) before.length + garbage.length);
    assertThat(copy(found)).isEqualTo(after);
  }

  /**
   * A thread's next window reads into the buffer its last one closed with, and its records are the
   * new file's own; a buffer grown past the usual size for one large record is not kept.
   */
  @Test
  void aThreadsNextWindowReusesTheBufferAndReadsOnlyItsOwnFile() throws IOException {
    Random random = new Random(5);
    byte[][] first = {bytes(random, 3_000), bytes(random, 700_000), bytes(random, 900)};
    byte[][] second = {bytes(random, 10), bytes(random, 40_000)};
    Path a = Records.write(dir, "a", Records.frame(first));
    Path b = Records.write(dir, "b", Records.frame(second));
    Path large = Records.write(dir, "c", Records.frame(bytes(random, 3 << 20)));

    byte[] used = bufferAfterReading(a);
    assertThat(readAll(b).subList(0, 2))
        .extracting(step -> copy((TfRecordReader.Record) step))
        .containsExactly(second);
    assertThat(bufferAfterReading(b)).isSameAs(used);
    byte[] grown = bufferAfterReading(large);
    assertThat(grown).hasSizeGreaterThan(3 << 20);
    assertThat(bufferAfterReading(b)).isNotSameAs(grown);
  }

  /** The buffer a window reading all of {@code path} ended with (valid only after its close). */
  private static byte[] bufferAfterReading(Path path) throws IOException {
    TfRecordReader reader = new TfRecordReader(path);
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        FileWindow window = new FileWindow(channel, 0)) {
      while (!(reader.next(window) instanceof TfRecordReader.End)) {
        // read to the end
      }
      return window.array();
    }
  }

  private static List<TfRecordReader.Step> readAll(Path path) throws IOException {
    TfRecordReader reader = new TfRecordReader(path);
    List<TfRecordReader.Step> steps = new ArrayList<>();
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ);
        FileWindow window = new FileWindow(channel, 0)) {
      TfRecordReader.Step step;
      do {
        step = reader.next(window);
        // The record's bytes are only valid until the next call: keep a copy.
        steps.add(step instanceof TfRecordReader.Record r ? detached(r) : step);
      } while (!(step instanceof TfRecordReader.End));
    }
    return steps;
  }

  private static TfRecordReader.Record detached(TfRecordReader.Record r) {
    return new TfRecordReader.Record(r.offset(), copy(r), 0, r.length());
  }

  private static byte[] copy(TfRecordReader.Record r) {
    return Arrays.copyOfRange(r.buffer(), r.start(), r.start() + r.length());
  }

  private static byte[] bytes(Random random, int length) {
    byte[] bytes = new byte[length];
    random.nextBytes(bytes);
    return bytes;
  }
}
