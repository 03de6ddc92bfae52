package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Walks the TFRecord framing of one event file: {@code uint64 length, masked CRC of the length,
 * data, masked CRC of the data}, all little-endian. The reader remembers where it stopped, so a
 * file that is still being written can be read again from there once more bytes have arrived.
 *
 * <p>Recovery: a bad data CRC skips the record by its (CRC-checked) length. A bad length CRC, or a
 * checked length beyond {@link #MAX_RECORD_BYTES}, leaves no trustworthy way forward, so the reader
 * scans byte by byte for the next offset whose length CRC and data CRC both agree (a false match
 * needs two 32-bit checksums to collide) and goes on from there; the scan itself survives a poll
 * that ends before it finds anything. Not thread-safe: one reader per file, one thread at a time.
 */
final class TfRecordReader {
  static final int HEADER_BYTES = 12;
  static final int FOOTER_BYTES = 4;

  /** Larger than any summary a trainer writes; a sane cap on what one record may allocate. */
  static final long MAX_RECORD_BYTES = 256L << 20;

  private static final int SCAN_WINDOW = 64 << 10;

  /** One step of reading. */
  sealed interface Step {}

  /** A record whose both CRCs agree; {@code data} is a fresh array owned by the caller. */
  record Record(long offset, byte[] data) implements Step {}

  /** Damage at some offset; reading may continue with the next call. */
  record Damaged(Corruption corruption) implements Step {}

  /**
   * Nothing more to read now. {@code pendingBytes > 0} means a partly written record (or bytes not
   * yet recognised as one) waits at {@code offset}: not an error, read again later.
   */
  record End(long offset, long pendingBytes) implements Step {}

  private final Path file;
  private long offset;
  private boolean resyncing;

  TfRecordReader(Path file) {
    this.file = file;
  }

  long offset() {
    return offset;
  }

  Step next(FileChannel channel) throws IOException {
    long size = channel.size();
    if (resyncing && !scanForRecord(channel, size)) {
      return new End(offset, Math.max(0, size - offset));
    }
    long remaining = size - offset;
    if (remaining < HEADER_BYTES) {
      return new End(offset, Math.max(0, remaining));
    }
    ByteBuffer header = read(channel, offset, HEADER_BYTES);
    if (header == null) {
      return new End(offset, remaining);
    }
    long length = header.getLong(0);
    if (MaskedCrc32c.of(header.array(), 0, 8) != header.getInt(8)) {
      return startResync(Corruption.Kind.BAD_LENGTH_CRC, "length checksum mismatch");
    }
    if (length < 0 || length > MAX_RECORD_BYTES) {
      return startResync(
          Corruption.Kind.OVERSIZED_RECORD, "record length " + Long.toUnsignedString(length));
    }
    long total = HEADER_BYTES + length + FOOTER_BYTES;
    if (remaining < total) {
      return new End(offset, remaining);
    }
    ByteBuffer body = read(channel, offset + HEADER_BYTES, (int) length + FOOTER_BYTES);
    if (body == null) {
      return new End(offset, remaining);
    }
    long at = offset;
    offset += total;
    if (MaskedCrc32c.of(body.array(), 0, (int) length) != body.getInt((int) length)) {
      return new Damaged(
          new Corruption(file, at, Corruption.Kind.BAD_DATA_CRC, "data checksum mismatch"));
    }
    byte[] data = new byte[(int) length];
    System.arraycopy(body.array(), 0, data, 0, (int) length);
    return new Record(at, data);
  }

  private Damaged startResync(Corruption.Kind kind, String detail) {
    Damaged damaged = new Damaged(new Corruption(file, offset, kind, detail));
    resyncing = true;
    offset++;
    return damaged;
  }

  /**
   * Moves {@link #offset} to the next plausible record start. Returns false when the bytes on disk
   * ran out first; {@link #offset} then marks where the scan resumes.
   */
  private boolean scanForRecord(FileChannel channel, long size) throws IOException {
    while (size - offset >= HEADER_BYTES) {
      int span = (int) Math.min(SCAN_WINDOW + HEADER_BYTES - 1, size - offset);
      ByteBuffer window = read(channel, offset, span);
      if (window == null) {
        return false;
      }
      for (int i = 0; i + HEADER_BYTES <= span; i++) {
        if (MaskedCrc32c.of(window.array(), i, 8) != window.getInt(i + 8)) {
          continue;
        }
        long candidate = offset + i;
        long length = window.getLong(i);
        if (length < 0 || length > MAX_RECORD_BYTES) {
          continue;
        }
        long end = candidate + HEADER_BYTES + length + FOOTER_BYTES;
        if (end > size) {
          // Maybe the next record, still being written: look again when it is complete.
          offset = candidate;
          return false;
        }
        ByteBuffer body = read(channel, candidate + HEADER_BYTES, (int) length + FOOTER_BYTES);
        if (body != null
            && MaskedCrc32c.of(body.array(), 0, (int) length) == body.getInt((int) length)) {
          offset = candidate;
          resyncing = false;
          return true;
        }
      }
      offset += span - HEADER_BYTES + 1;
    }
    return false;
  }

  /** Reads exactly {@code length} bytes, or returns null if the file ends first (it shrank). */
  private static ByteBuffer read(FileChannel channel, long position, int length)
      throws IOException {
    ByteBuffer buffer = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (buffer.hasRemaining()) {
      if (channel.read(buffer, position + buffer.position()) < 0) {
        return null;
      }
    }
    return buffer;
  }
}
