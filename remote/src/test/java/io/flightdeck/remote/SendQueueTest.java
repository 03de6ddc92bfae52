package io.flightdeck.remote;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SendQueueTest {
  private static final long NO_WAIT = 0;

  @TempDir Path dir;

  private static byte[] payload(int size, int fill) {
    byte[] bytes = new byte[size];
    Arrays.fill(bytes, (byte) fill);
    return bytes;
  }

  private List<Path> segments() throws Exception {
    try (Stream<Path> files = Files.list(dir)) {
      return files.filter(p -> p.toString().endsWith(".seg")).sorted().toList();
    }
  }

  @Test
  void readsRecordsInOrderUpToTheBatchSizeAndDeletesWhatIsAcknowledged() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      queue.append(payload(10, 1), 3);
      queue.append(payload(20, 2), 3);
      queue.append(payload(30, 3), 3);
      assertThat(queue.pendingSamples()).isEqualTo(9);

      SendQueue.Batch first = queue.next(6, 0, NO_WAIT, false);
      assertThat(first.samples()).isEqualTo(6);
      assertThat(first.payload()).hasSize(30);
      queue.ack(first);
      SendQueue.Batch second = queue.next(6, 0, NO_WAIT, false);
      assertThat(second.payload()).isEqualTo(payload(30, 3));
      queue.ack(second);
      assertThat(queue.pendingSamples()).isZero();
      assertThat(queue.next(6, 0, NO_WAIT, false)).isNull();
    }
  }

  @Test
  void waitsForTheBatchDeadlineUnlessTheBatchIsFull() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      long hour = 3_600_000_000_000L;
      queue.append(payload(10, 1), 3);
      assertThat(queue.next(5, hour, NO_WAIT, false)).as("not full, not due").isNull();
      assertThat(queue.next(5, hour, NO_WAIT, true)).as("flushing").isNotNull();
    }
  }

  @Test
  void keepsWhatWasNotAcknowledgedAcrossARestart() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      queue.append(payload(10, 1), 1);
      queue.ack(queue.next(1, 0, NO_WAIT, false));
      queue.append(payload(10, 2), 2);
      queue.append(payload(10, 3), 4);
      queue.next(2, 0, NO_WAIT, false); // in flight when the process stops
    }
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      assertThat(queue.pendingSamples()).isEqualTo(6);
      SendQueue.Batch batch = queue.next(100, 3_600_000_000_000L, NO_WAIT, false);
      assertThat(batch.samples()).as("left over from a restart: due at once").isEqualTo(6);
      assertThat(batch.payload()).startsWith(payload(10, 2));
      queue.ack(batch);
    }
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      assertThat(queue.pendingSamples()).isZero();
    }
  }

  @Test
  void cutsATornTailAndKeepsTheIntactRecords() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      queue.append(payload(100, 1), 5);
      queue.append(payload(100, 2), 5);
    }
    Path segment = segments().get(0);
    long intact = Files.size(segment);
    Files.write(segment, new byte[] {0, 0, 0, 100, 0, 0}, StandardOpenOption.APPEND);
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      assertThat(queue.pendingSamples()).isEqualTo(10);
      assertThat(Files.size(segment)).isEqualTo(intact);
    }
  }

  @Test
  void aFlippedByteEndsTheSegmentAtTheRecordBeforeIt() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      queue.append(payload(100, 1), 5);
      queue.append(payload(100, 2), 7);
      queue.append(payload(100, 3), 9);
    }
    Path segment = segments().get(0);
    byte[] bytes = Files.readAllBytes(segment);
    int secondPayload = SendQueue.SEGMENT_HEADER_BYTES + 2 * SendQueue.RECORD_HEADER_BYTES + 100;
    bytes[secondPayload + 10] ^= 0x40;
    Files.write(segment, bytes);
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      assertThat(queue.pendingSamples()).isEqualTo(5);
    }
  }

  @Test
  void dropsTheOldestSegmentsWhenFullAndCountsTheirSamples() throws Exception {
    long max = 256 << 10;
    int records = 100;
    try (SendQueue queue = SendQueue.open(dir, max)) {
      for (int i = 0; i < records; i++) {
        queue.append(payload(10_000, i), 10);
      }
      assertThat(queue.bytes()).isLessThanOrEqualTo(max);
      assertThat(queue.droppedSamples()).isGreaterThan(0);
      assertThat(queue.pendingSamples() + queue.droppedSamples()).isEqualTo(records * 10L);
      SendQueue.Batch oldestKept = queue.next(10, 0, NO_WAIT, false);
      int firstKept = (int) (queue.droppedSamples() / 10);
      assertThat(oldestKept.payload()).isEqualTo(payload(10_000, firstKept));
      long onDisk = 0;
      for (Path p : segments()) {
        onDisk += Files.size(p);
      }
      assertThat(onDisk).isEqualTo(queue.bytes());
    }
  }

  @Test
  void segmentsStartWithMagicAndVersion() throws Exception {
    try (SendQueue queue = SendQueue.open(dir, 1 << 30)) {
      queue.append(payload(1, 1), 1);
    }
    ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(segments().get(0)));
    assertThat(header.getInt(0)).isEqualTo(0x46445351);
    assertThat(header.get(4)).isEqualTo((byte) 1);
    assertThat(header.getInt(5)).as("record length").isEqualTo(1);
    assertThat(header.getInt(9)).as("sample count").isEqualTo(1);
    assertThat(header.getInt(13)).isEqualTo(SendQueue.crc(1, payload(1, 1)));
  }
}
