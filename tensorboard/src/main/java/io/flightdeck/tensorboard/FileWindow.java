package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;

/**
 * Positional reads of one open file through one reusable buffer: each refill reads as much as the
 * buffer holds, so framing a run of small records costs one system call per buffer, not two per
 * record. The buffer grows when one request needs more. Bytes are addressed by file position; they
 * stay valid until the next {@link #fill}. Lives as long as the channel (one poll), and {@link
 * #close()} hands its buffer to the thread's next window: an import reads file after file on one
 * thread, and a new megabyte per file was a tenth of a 1 GB import's allocations. Not thread-safe.
 */
final class FileWindow implements AutoCloseable {
  /** Large enough that a refill amortises the system call over thousands of small records. */
  static final int MAX_INITIAL_BYTES = 1 << 20;

  private static final int MIN_INITIAL_BYTES = 4 << 10;

  /** The buffer of this thread's last window, at most {@link #MAX_INITIAL_BYTES}, or null. */
  private static final ThreadLocal<byte[]> SPARE = new ThreadLocal<>();

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
    byte[] spare = SPARE.get();
    if (spare != null && spare.length >= capacity) {
      SPARE.remove();
      this.bytes = spare;
    } else {
      this.bytes = new byte[capacity];
    }
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

  /** Keeps the buffer for this thread's next window; no method may be called afterwards. */
  @Override
  public void close() {
    byte[] spare = SPARE.get();
    if (bytes.length <= MAX_INITIAL_BYTES && (spare == null || spare.length < bytes.length)) {
      SPARE.set(bytes);
    }
    bytes = null;
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
