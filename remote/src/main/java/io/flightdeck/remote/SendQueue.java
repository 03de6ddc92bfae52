package io.flightdeck.remote;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sender's queue on disk: records appended to segment files, read back in order by one reader,
 * deleted once acknowledged, the oldest segments dropped when the queue outgrows its bound. The
 * format is in {@code remote/docs/send-queue.md}. A record is durable (fsynced) when {@link
 * #append} returns; what was read but not acknowledged is read again after a restart, so delivery
 * is at least once. Thread-safe: one lock guards everything; {@link #next} and {@link #ack} belong
 * to a single reader thread.
 */
final class SendQueue implements AutoCloseable {
  static final int SEGMENT_MAGIC = 0x46445351; // "FDSQ"
  static final int POSITION_MAGIC = 0x46445350; // "FDSP"
  static final byte VERSION = 1;
  static final int SEGMENT_HEADER_BYTES = 5;
  static final int RECORD_HEADER_BYTES = 12;
  static final int POSITION_BYTES = 25;
  static final String POSITION_FILE = "position";

  private static final Logger LOG = LoggerFactory.getLogger(SendQueue.class);

  /** Records read together: their payloads back to back, and where the reader stands after them. */
  record Batch(byte[] payload, int samples, long endSegment, long endOffset) {}

  /** One segment file; {@code readSamples} counts the samples handed to the reader so far. */
  private static final class Segment {
    final long seq;
    long bytes;
    long samples;
    long readSamples;

    Segment(long seq, long bytes) {
      this.seq = seq;
      this.bytes = bytes;
    }
  }

  private final Path dir;
  private final long maxBytes;
  private final long segmentBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final ArrayDeque<Segment> segments = new ArrayDeque<>();
  private FileChannel writer;
  private long totalBytes;
  private long unreadSamples;
  private long inFlightSamples;
  private long droppedSamples;
  private long readSeq;
  private long readOffset;
  private long ackSeq;
  private long ackOffset;
  private long oldestUnreadNanos;
  private boolean closed;

  private SendQueue(Path dir, long maxBytes) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    // A few segments per bound, so dropping the oldest frees a fair share and no more.
    this.segmentBytes = Math.max(64 << 10, maxBytes / 4);
  }

  /**
   * Opens the queue in {@code dir}, creating it if needed: keeps every record after the last
   * acknowledged position, cuts a torn or corrupt tail off each segment, and starts a new segment.
   */
  static SendQueue open(Path dir, long maxBytes) throws IOException {
    Files.createDirectories(dir);
    SendQueue queue = new SendQueue(dir, maxBytes);
    queue.recover();
    return queue;
  }

  private void recover() throws IOException {
    long[] position = readPosition();
    List<Long> seqs = new ArrayList<>();
    try (Stream<Path> files = Files.list(dir)) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.matches("\\d{20}\\.seg"))
          .forEach(n -> seqs.add(Long.parseLong(n.substring(0, 20))));
    }
    seqs.sort(null);
    for (long seq : seqs) {
      if (position != null && seq < position[0]) {
        Files.delete(segmentPath(seq)); // acknowledged before a crash cut the deletion short
        continue;
      }
      Segment segment = scan(seq);
      if (segment != null) {
        segments.addLast(segment);
        totalBytes += segment.bytes;
        unreadSamples += segment.samples;
      }
    }
    if (position != null
        && !segments.isEmpty()
        && segments.peekFirst().seq == position[0]
        && position[1] <= segments.peekFirst().bytes) {
      ackSeq = position[0];
      ackOffset = position[1];
      Segment first = segments.peekFirst();
      first.readSamples = samplesBefore(first.seq, ackOffset);
      unreadSamples -= first.readSamples;
    } else if (!segments.isEmpty()) {
      ackSeq = segments.peekFirst().seq;
      ackOffset = SEGMENT_HEADER_BYTES;
    }
    long next = segments.isEmpty() ? (position == null ? 0 : position[0]) : segments.peekLast().seq;
    openSegment(segments.isEmpty() ? next : next + 1);
    if (ackSeq < segments.peekFirst().seq || ackOffset < SEGMENT_HEADER_BYTES) {
      ackSeq = segments.peekFirst().seq;
      ackOffset = SEGMENT_HEADER_BYTES;
    }
    readSeq = ackSeq;
    readOffset = ackOffset;
    // Whatever survived a restart is overdue: send it without waiting for a batch to fill.
    oldestUnreadNanos = System.nanoTime() - TimeUnit.DAYS.toNanos(1);
  }

  /** Validates a segment and truncates it after its last intact record; null if unusable. */
  private Segment scan(long seq) throws IOException {
    Path path = segmentPath(seq);
    try (FileChannel channel =
        FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
      if (channel.read(header, 0) != SEGMENT_HEADER_BYTES
          || header.getInt(0) != SEGMENT_MAGIC
          || header.get(4) != VERSION) {
        LOG.warn("remote-write queue: {} has no valid header; deleting it", path);
        channel.close();
        Files.delete(path);
        return null;
      }
      Segment segment = new Segment(seq, SEGMENT_HEADER_BYTES);
      long size = channel.size();
      long offset = SEGMENT_HEADER_BYTES;
      while (offset < size) {
        RecordHeader record = readRecord(channel, offset, size);
        if (record == null) {
          break;
        }
        segment.samples += record.samples;
        offset += RECORD_HEADER_BYTES + record.length;
      }
      if (offset < size) {
        LOG.warn(
            "remote-write queue: cutting {} bytes of torn or corrupt records off {} at offset {}",
            size - offset,
            path,
            offset);
        channel.truncate(offset);
        channel.force(true);
      }
      segment.bytes = offset;
      return segment;
    }
  }

  private record RecordHeader(int length, int samples, byte[] payload) {}

  /** The intact record at {@code offset}, or null when it is torn or fails its checksum. */
  private static RecordHeader readRecord(FileChannel channel, long offset, long size)
      throws IOException {
    if (size - offset < RECORD_HEADER_BYTES) {
      return null;
    }
    ByteBuffer header = ByteBuffer.allocate(RECORD_HEADER_BYTES).order(ByteOrder.BIG_ENDIAN);
    readFully(channel, header, offset);
    int length = header.getInt(0);
    int samples = header.getInt(4);
    int crc = header.getInt(8);
    if (length < 0 || samples < 0 || size - offset - RECORD_HEADER_BYTES < length) {
      return null;
    }
    ByteBuffer payload = ByteBuffer.allocate(length);
    readFully(channel, payload, offset + RECORD_HEADER_BYTES);
    if (crc(samples, payload.array()) != crc) {
      return null;
    }
    return new RecordHeader(length, samples, payload.array());
  }

  private static void readFully(FileChannel channel, ByteBuffer buffer, long offset)
      throws IOException {
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, offset + buffer.position()) < 0) {
        throw new IOException("unexpected end of file at offset " + offset);
      }
    }
  }

  /** CRC-32C over the sample count and the payload. */
  static int crc(int samples, byte[] payload) {
    CRC32C crc = new CRC32C();
    crc.update(ByteBuffer.allocate(4).putInt(0, samples));
    crc.update(payload);
    return (int) crc.getValue();
  }

  private long samplesBefore(long seq, long endOffset) throws IOException {
    long samples = 0;
    try (FileChannel channel = FileChannel.open(segmentPath(seq), StandardOpenOption.READ)) {
      long offset = SEGMENT_HEADER_BYTES;
      while (offset < endOffset) {
        RecordHeader record = readRecord(channel, offset, channel.size());
        if (record == null) {
          break;
        }
        samples += record.samples;
        offset += RECORD_HEADER_BYTES + record.length;
      }
    }
    return samples;
  }

  private void openSegment(long seq) throws IOException {
    if (writer != null) {
      writer.close();
    }
    Path path = segmentPath(seq);
    writer =
        FileChannel.open(
            path,
            StandardOpenOption.CREATE_NEW,
            StandardOpenOption.WRITE,
            StandardOpenOption.APPEND);
    ByteBuffer header = ByteBuffer.allocate(SEGMENT_HEADER_BYTES);
    header.putInt(SEGMENT_MAGIC).put(VERSION).flip();
    writer.write(header);
    writer.force(true);
    segments.addLast(new Segment(seq, SEGMENT_HEADER_BYTES));
    totalBytes += SEGMENT_HEADER_BYTES;
  }

  /** One record to append: a payload of {@code samples} samples. */
  record Entry(byte[] payload, int samples) {}

  /**
   * Appends the records of one commit and fsyncs them once: all of them or, on failure, none (the
   * segment is cut back). Drops the oldest segments first when the queue would outgrow its bound; a
   * commit larger than the bound is still kept.
   */
  void append(List<Entry> entries) throws IOException {
    lock.lock();
    try {
      if (closed) {
        throw new IOException("the remote-write queue in " + dir + " is closed");
      }
      long bytes = 0;
      int samples = 0;
      for (Entry entry : entries) {
        bytes += RECORD_HEADER_BYTES + (long) entry.payload().length;
        samples += entry.samples();
      }
      Segment current = segments.peekLast();
      if (current.bytes > SEGMENT_HEADER_BYTES && current.bytes + bytes > segmentBytes) {
        openSegment(current.seq + 1);
        current = segments.peekLast();
      }
      while (totalBytes + bytes > maxBytes && segments.size() > 1) {
        dropOldest();
      }
      try {
        for (Entry entry : entries) {
          writeRecord(entry);
        }
        writer.force(false);
      } catch (IOException e) {
        writer.truncate(current.bytes);
        throw e;
      }
      current.bytes += bytes;
      current.samples += samples;
      totalBytes += bytes;
      if (unreadSamples == 0) {
        oldestUnreadNanos = System.nanoTime();
      }
      unreadSamples += samples;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Appends a single record; see {@link #append(List)}. */
  void append(byte[] payload, int samples) throws IOException {
    append(List.of(new Entry(payload, samples)));
  }

  private void writeRecord(Entry entry) throws IOException {
    byte[] payload = entry.payload();
    ByteBuffer buffer =
        ByteBuffer.allocate(RECORD_HEADER_BYTES + payload.length)
            .putInt(payload.length)
            .putInt(entry.samples())
            .putInt(crc(entry.samples(), payload))
            .put(payload)
            .flip();
    while (buffer.hasRemaining()) {
      writer.write(buffer);
    }
  }

  private void dropOldest() throws IOException {
    Segment oldest = segments.removeFirst();
    long unread = oldest.samples - oldest.readSamples;
    droppedSamples += unread;
    unreadSamples -= unread;
    totalBytes -= oldest.bytes;
    Files.deleteIfExists(segmentPath(oldest.seq));
    Segment next = segments.peekFirst();
    if (readSeq == oldest.seq) {
      readSeq = next.seq;
      readOffset = SEGMENT_HEADER_BYTES;
    }
    if (ackSeq == oldest.seq) {
      ackSeq = next.seq;
      ackOffset = SEGMENT_HEADER_BYTES;
      writePosition();
    }
    LOG.warn(
        "remote-write queue in {} is full ({} bytes): dropped its oldest segment with {} unsent"
            + " samples",
        dir,
        maxBytes,
        unread);
  }

  /**
   * Waits for the next batch of at most {@code maxSamples} samples (a single larger record comes
   * alone): returns as soon as that many are waiting, or when the oldest unread record has waited
   * {@code deadline}, or at once when {@code flush} is set and anything is waiting; null after
   * {@code maxWait} with nothing due. The batch stays in the queue until {@link #ack}.
   */
  Batch next(int maxSamples, long deadlineNanos, long maxWaitNanos, boolean flush)
      throws IOException, InterruptedException {
    lock.lock();
    try {
      if (inFlightSamples > 0) {
        throw new IllegalStateException("the previous batch was not acknowledged");
      }
      long end = System.nanoTime() + maxWaitNanos;
      while (true) {
        long now = System.nanoTime();
        long due = oldestUnreadNanos + deadlineNanos;
        if (unreadSamples > 0 && (flush || unreadSamples >= maxSamples || now - due >= 0)) {
          return read(maxSamples);
        }
        long wait = end - now;
        if (unreadSamples > 0) {
          wait = Math.min(wait, due - now);
        }
        if (wait <= 0 || closed) {
          return null;
        }
        changed.awaitNanos(wait);
      }
    } finally {
      lock.unlock();
    }
  }

  private Batch read(int maxSamples) throws IOException {
    List<byte[]> parts = new ArrayList<>();
    int samples = 0;
    int bytes = 0;
    for (Segment segment : segments) {
      if (segment.seq < readSeq) {
        continue;
      }
      if (segment.seq > readSeq) {
        readSeq = segment.seq;
        readOffset = SEGMENT_HEADER_BYTES;
      }
      if (readOffset >= segment.bytes) {
        continue;
      }
      try (FileChannel channel =
          FileChannel.open(segmentPath(segment.seq), StandardOpenOption.READ)) {
        while (readOffset < segment.bytes) {
          RecordHeader record = readRecord(channel, readOffset, segment.bytes);
          if (record == null) {
            skipCorruptRest(segment);
            break;
          }
          if (samples > 0 && samples + record.samples > maxSamples) {
            return batch(parts, bytes, samples);
          }
          parts.add(record.payload);
          bytes += record.length;
          samples += record.samples;
          segment.readSamples += record.samples;
          unreadSamples -= record.samples;
          readOffset += RECORD_HEADER_BYTES + record.length;
        }
      }
    }
    return batch(parts, bytes, samples);
  }

  /** A record that went bad on disk after it was written: the rest of its segment is lost. */
  private void skipCorruptRest(Segment segment) {
    long lost = segment.samples - segment.readSamples;
    LOG.warn(
        "remote-write queue: record at offset {} of {} fails its checksum; dropping the {} samples"
            + " after it in that segment",
        readOffset,
        segmentPath(segment.seq),
        lost);
    droppedSamples += lost;
    unreadSamples -= lost;
    segment.readSamples = segment.samples;
    readOffset = segment.bytes;
  }

  private Batch batch(List<byte[]> parts, int bytes, int samples) {
    if (unreadSamples == 0) {
      oldestUnreadNanos = System.nanoTime();
    }
    byte[] payload = new byte[bytes];
    int at = 0;
    for (byte[] part : parts) {
      System.arraycopy(part, 0, payload, at, part.length);
      at += part.length;
    }
    inFlightSamples = samples;
    return new Batch(payload, samples, readSeq, readOffset);
  }

  /**
   * Marks {@code batch} as done (delivered or refused for good): persists the position after it and
   * deletes the segments read to the end.
   */
  void ack(Batch batch) throws IOException {
    lock.lock();
    try {
      inFlightSamples = 0;
      Segment first = segments.peekFirst();
      if (batch.endSegment() < first.seq) {
        return; // its segments were dropped while it was in flight; the position moved already
      }
      ackSeq = batch.endSegment();
      ackOffset = batch.endOffset();
      writePosition();
      while (segments.size() > 1 && segments.peekFirst().seq < ackSeq) {
        Segment done = segments.removeFirst();
        totalBytes -= done.bytes;
        Files.deleteIfExists(segmentPath(done.seq));
      }
    } finally {
      lock.unlock();
    }
  }

  private void writePosition() throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(POSITION_BYTES);
    buffer.putInt(POSITION_MAGIC).put(VERSION).putLong(ackSeq).putLong(ackOffset);
    CRC32C crc = new CRC32C();
    crc.update(buffer.array(), 0, POSITION_BYTES - 4);
    buffer.putInt((int) crc.getValue());
    Path tmp = dir.resolve(POSITION_FILE + ".tmp");
    try (FileChannel channel =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      buffer.flip();
      channel.write(buffer);
      channel.force(true);
    }
    Files.move(
        tmp,
        dir.resolve(POSITION_FILE),
        StandardCopyOption.ATOMIC_MOVE,
        StandardCopyOption.REPLACE_EXISTING);
  }

  /** The saved {segment, offset}, or null when there is none or it is damaged. */
  private long[] readPosition() throws IOException {
    Path path = dir.resolve(POSITION_FILE);
    if (!Files.exists(path)) {
      return null;
    }
    byte[] bytes = Files.readAllBytes(path);
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    CRC32C crc = new CRC32C();
    if (bytes.length == POSITION_BYTES) {
      crc.update(bytes, 0, POSITION_BYTES - 4);
    }
    if (bytes.length != POSITION_BYTES
        || buffer.getInt(0) != POSITION_MAGIC
        || buffer.get(4) != VERSION
        || buffer.getInt(POSITION_BYTES - 4) != (int) crc.getValue()) {
      LOG.warn("remote-write queue: {} is damaged; sending from the oldest segment", path);
      return null;
    }
    return new long[] {buffer.getLong(5), buffer.getLong(13)};
  }

  private Path segmentPath(long seq) {
    return dir.resolve(String.format("%020d.seg", seq));
  }

  /** Samples not yet delivered or refused: waiting, and in the batch being sent. */
  long pendingSamples() {
    lock.lock();
    try {
      return unreadSamples + inFlightSamples;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes of the segment files. */
  long bytes() {
    lock.lock();
    try {
      return totalBytes;
    } finally {
      lock.unlock();
    }
  }

  /** Samples lost because the queue was full or a record went bad on disk. */
  long droppedSamples() {
    lock.lock();
    try {
      return droppedSamples;
    } finally {
      lock.unlock();
    }
  }

  /** Wakes a reader waiting in {@link #next} so that it can notice a shutdown. */
  void wakeUp() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public void close() throws IOException {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      changed.signalAll();
      writer.close();
    } finally {
      lock.unlock();
    }
  }
}
