package io.flightdeck.tensorboard;

import java.io.IOException;
import java.nio.file.Path;
import java.util.zip.CRC32C;

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

  /** One step of reading. */
  sealed interface Step {}

  /**
   * A record whose both CRCs agree: its bytes are {@code buffer[start, start + length)}. The buffer
   * belongs to the reader and is overwritten by the next call, and so is the record itself: each
   * reader hands out one, refilled per record (one object per record was a quarter of what a large
   * import allocated). Nothing decoded from it may keep a reference to either.
   */
  static final class Record implements Step {
    private long offset;
    private byte[] buffer;
    private int start;
    private int length;

    Record(long offset, byte[] buffer, int start, int length) {
      set(offset, buffer, start, length);
    }

    private Record set(long offset, byte[] buffer, int start, int length) {
      this.offset = offset;
      this.buffer = buffer;
      this.start = start;
      this.length = length;
      return this;
    }

    long offset() {
      return offset;
    }

    byte[] buffer() {
      return buffer;
    }

    int start() {
      return start;
    }

    int length() {
      return length;
    }
  }

  /** Damage at some offset; reading may continue with the next call. */
  record Damaged(Corruption corruption) implements Step {}

  /**
   * Nothing more to read now. {@code pendingBytes > 0} means a partly written record (or bytes not
   * yet recognised as one) waits at {@code offset}: not an error, read again later.
   */
  record End(long offset, long pendingBytes) implements Step {}

  private final Path file;
  private final CRC32C crc = new CRC32C();
  private final LengthChecksums lengthChecksums = new LengthChecksums();
  private final Record record = new Record(0, null, 0, 0);
  private long offset;
  private boolean resyncing;

  TfRecordReader(Path file) {
    this.file = file;
  }

  long offset() {
    return offset;
  }

  /** Reads the next step from {@code window}, a view of this reader's file. */
  Step next(FileWindow window) throws IOException {
    long size = window.size();
    if (resyncing && !scanForRecord(window, size)) {
      return new End(offset, Math.max(0, size - offset));
    }
    long remaining = size - offset;
    if (remaining < HEADER_BYTES) {
      return new End(offset, Math.max(0, remaining));
    }
    if (!window.fill(offset, HEADER_BYTES)) {
      return new End(offset, remaining);
    }
    long length = window.getLong(offset);
    if (!lengthCrcAgrees(window, offset, length)) {
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
    long data = offset + HEADER_BYTES;
    if (!window.fill(data, (int) length + FOOTER_BYTES)) {
      return new End(offset, remaining);
    }
    long at = offset;
    offset += total;
    if (!dataCrcAgrees(window, data, (int) length)) {
      return new Damaged(
          new Corruption(file, at, Corruption.Kind.BAD_DATA_CRC, "data checksum mismatch"));
    }
    return record.set(at, window.array(), window.index(data), (int) length);
  }

  /** Whether the header at {@code header}, holding {@code length}, has that length's checksum. */
  private boolean lengthCrcAgrees(FileWindow window, long header, long length) {
    return lengthChecksums.of(length) == window.getInt(header + 8);
  }

  /** Needs the data and its footer filled. */
  private boolean dataCrcAgrees(FileWindow window, long data, int length) {
    return MaskedCrc32c.of(crc, window.array(), window.index(data), length)
        == window.getInt(data + length);
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
  private boolean scanForRecord(FileWindow window, long size) throws IOException {
    for (; size - offset >= HEADER_BYTES; offset++) {
      if (!window.fill(offset, HEADER_BYTES)) {
        return false;
      }
      long length = window.getLong(offset);
      if (!lengthCrcAgrees(window, offset, length)) {
        continue;
      }
      if (length < 0 || length > MAX_RECORD_BYTES) {
        continue;
      }
      if (offset + HEADER_BYTES + length + FOOTER_BYTES > size) {
        // Maybe the next record, still being written: look again when it is complete.
        return false;
      }
      long data = offset + HEADER_BYTES;
      if (window.fill(data, (int) length + FOOTER_BYTES)
          && dataCrcAgrees(window, data, (int) length)) {
        resyncing = false;
        return true;
      }
    }
    return false;
  }
}
