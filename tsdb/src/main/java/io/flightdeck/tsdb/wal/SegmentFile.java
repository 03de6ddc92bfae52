package io.flightdeck.tsdb.wal;

import io.flightdeck.storage.StorageException;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.tsdb.encoding.Encbuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

/** One WAL segment open for appending framed records. Not thread-safe: the WAL serialises. */
final class SegmentFile implements AutoCloseable {
  private final Path path;
  private final FileChannel channel;
  private final byte[] frameHeader = new byte[WalSegments.FRAME_HEADER_SIZE];
  private final CRC32C crc = new CRC32C();
  private long size;

  private SegmentFile(Path path, FileChannel channel, long size) {
    this.path = path;
    this.channel = channel;
    this.size = size;
  }

  static SegmentFile create(Path path) throws IOException {
    FileChannel channel =
        FileChannel.open(
            path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE, StandardOpenOption.READ);
    SegmentFile file = new SegmentFile(path, channel, 0);
    try {
      file.writeFully(ByteBuffer.wrap(WalSegments.header()));
    } catch (IOException e) {
      // No half-written segment is left for replay, nor a file that blocks the retry.
      try {
        channel.close();
        Files.deleteIfExists(path);
      } catch (IOException cleanup) {
        e.addSuppressed(cleanup);
      }
      throw e;
    }
    file.size = WalSegments.HEADER_SIZE;
    return file;
  }

  Path path() {
    return path;
  }

  long size() {
    return size;
  }

  /**
   * Appends one framed record. The bytes reach the operating system before this returns, so they
   * survive a crash of the process; {@link #sync()} makes them survive a power loss. On failure the
   * partial frame is cut off again and the segment stays well-formed.
   */
  void append(int type, Encbuf payload) {
    int length = payload.length();
    crc.reset();
    crc.update(type);
    crc.update(payload.array(), 0, length);
    int checksum = (int) crc.getValue();
    frameHeader[0] = (byte) type;
    putInt(frameHeader, 1, length);
    putInt(frameHeader, 5, checksum);
    long before = size;
    try {
      writeFully(ByteBuffer.wrap(frameHeader), ByteBuffer.wrap(payload.array(), 0, length));
      size = before + WalSegments.FRAME_HEADER_SIZE + length;
    } catch (IOException e) {
      try {
        channel.truncate(before);
        channel.position(before);
      } catch (IOException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw new StorageUnavailableException(
          StorageException.withContext(
              "writing the write-ahead log failed: " + e.getMessage(), "segment", path),
          e);
    }
  }

  void sync() throws IOException {
    channel.force(false);
  }

  @Override
  public void close() throws IOException {
    try {
      channel.force(false);
    } finally {
      channel.close();
    }
  }

  private void writeFully(ByteBuffer... buffers) throws IOException {
    long remaining = 0;
    for (ByteBuffer b : buffers) {
      remaining += b.remaining();
    }
    while (remaining > 0) {
      remaining -= channel.write(buffers);
    }
  }

  private static void putInt(byte[] b, int at, int v) {
    b[at] = (byte) (v >>> 24);
    b[at + 1] = (byte) (v >>> 16);
    b[at + 2] = (byte) (v >>> 8);
    b[at + 3] = (byte) v;
  }
}
