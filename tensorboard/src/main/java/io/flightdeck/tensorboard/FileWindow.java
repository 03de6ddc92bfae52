package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Positional reads of one open file through one reusable buffer: each refill reads as much as the
 * buffer holds, so framing a run of small records costs one system call per buffer, not two per
 * record. The buffer grows when one request needs more. Bytes are addressed by file position; they
 * stay valid until the next {@link #fill}. Lives as long as the channel (one poll). Not
 * thread-safe.
 */
final class FileWindow {
  /** Large enough that a refill amortises the system call over thousands of small records. */
  static final int MAX_INITIAL_BYTES = 1 << 20;

  private static final int MIN_INITIAL_BYTES = 4 << 10;

  private final FileChannel channel;
  private final long size;
  private byte[] bytes;
  private ByteBuffer littleEndian;
  private long start;
  private int length;

  /**
   * Takes the file's size once: a poll reads what was there when it began, without a system call
   * per record.
   *
   * @param from where reading starts; the bytes after it size the first buffer, so tailing a file
   *     that grew by a few bytes does not allocate a whole megabyte
   */
  FileWindow(FileChannel channel, long from) throws IOException {
    this.channel = channel;
    this.size = channel.size();
    int capacity = (int) Math.clamp(size - from, MIN_INITIAL_BYTES, MAX_INITIAL_BYTES);
    this.bytes = new byte[capacity];
    this.littleEndian = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * Makes the {@code count} bytes at {@code position} available. Returns false if the file ends
   * first (it shrank since its size was taken).
   */
  boolean fill(long position, int count) throws IOException {
    // Small enough for C1 to inline into the framing loop, which calls it twice per record.
    return (position >= start && position + count <= start + length) || refill(position, count);
  }

  private boolean refill(long position, int count) throws IOException {
    // Keep the bytes from position on that are already here, then read behind them.
    int keep =
        position >= start && position < start + length ? (int) (start + length - position) : 0;
    byte[] target = count > bytes.length ? new byte[Math.max(count, 2 * bytes.length)] : bytes;
    System.arraycopy(bytes, length - keep, target, 0, keep);
    if (target != bytes) {
      bytes = target;
      littleEndian = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }
    start = position;
    length = keep;
    ByteBuffer free = ByteBuffer.wrap(bytes);
    while (length < count) {
      free.limit(bytes.length).position(length);
      int read = channel.read(free, start + length);
      if (read < 0) {
        return false;
      }
      length += read;
    }
    return true;
  }

  /** The file's size when this window was made. */
  long size() {
    return size;
  }

  /** The buffer holding the filled bytes; valid until the next {@link #fill}. */
  byte[] array() {
    return bytes;
  }

  /** Index in {@link #array()} of the byte at file position {@code position}. */
  int index(long position) {
    return (int) (position - start);
  }

  long getLong(long position) {
    return littleEndian.getLong(index(position));
  }

  int getInt(long position) {
    return littleEndian.getInt(index(position));
  }
}
