package io.flightdeck.tsdb.wal;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntPredicate;
import java.util.zip.CRC32C;

/**
 * Reads the records of one segment in order. Every record carries its own checksum, so damage in
 * the middle of a segment costs only the records it touches: the reader skips to the next frame
 * whose checksum holds and reads on, and reports each damaged byte range. A frame that runs past
 * the end of the file with nothing valid after it is a torn tail (a crash mid-write).
 */
final class WalSegmentReader {
  /** Outcome of reading one segment; its bytes come along for repair and for the copy aside. */
  record Result(
      long records,
      boolean badHeader,
      List<WalDamage> damages,
      long tornTailAt,
      long recordsAfterDamage,
      byte[] bytes) {
    boolean clean() {
      return !badHeader && damages.isEmpty() && tornTailAt < 0;
    }
  }

  private WalSegmentReader() {}

  /**
   * @param segment the segment's number, passed to {@link WalVisitor#position}
   * @param decode which record types to decode; the others are only checked and skipped
   */
  static Result read(Path file, int segment, IntPredicate decode, WalVisitor visitor)
      throws IOException {
    byte[] bytes = readAll(file);
    if (bytes == null) {
      return new Result(0, true, List.of(), -1, 0, new byte[0]);
    }
    boolean badHeader =
        bytes.length < WalSegments.HEADER_SIZE
            || !Arrays.equals(bytes, 0, 4, WalSegments.MAGIC, 0, 4)
            || bytes[4] != WalSegments.VERSION;
    List<WalDamage> damages = new ArrayList<>();
    long records = 0;
    long afterDamage = 0;
    long tornTailAt = -1;
    CRC32C crc = new CRC32C();
    int offset = WalSegments.HEADER_SIZE;
    while (offset < bytes.length) {
      String problem = checkFrame(bytes, offset, crc);
      int type = problem == null ? bytes[offset] & 0xff : -1;
      int end =
          problem == null ? offset + WalSegments.FRAME_HEADER_SIZE + length(bytes, offset) : 0;
      if (problem == null && type != WalRecordCodec.PADDING && decode.test(type)) {
        try {
          visitor.position(segment, offset);
          WalRecordCodec.decode(
              type,
              Decbuf.wrap(bytes, offset + WalSegments.FRAME_HEADER_SIZE, length(bytes, offset)),
              visitor);
        } catch (CorruptDataException e) {
          // Checksummed yet unreadable: written wrong, not damaged since; it alone is lost.
          damages.add(WalDamage.of(bytes, offset, end, "undecodable record: " + e.getMessage()));
          offset = end;
          continue;
        }
      }
      if (problem == null) {
        if (type != WalRecordCodec.PADDING) {
          records++;
          if (!damages.isEmpty()) {
            afterDamage++;
          }
        }
        offset = end;
        continue;
      }
      int next = resync(bytes, offset, crc);
      if (next < 0 && problem.startsWith("torn")) {
        tornTailAt = offset;
        break;
      }
      int damageEnd = next < 0 ? bytes.length : next;
      damages.add(WalDamage.of(bytes, offset, damageEnd, problem));
      offset = damageEnd;
    }
    return new Result(records, badHeader, damages, tornTailAt, afterDamage, bytes);
  }

  /** Null when a whole frame with a matching checksum starts at {@code offset}, else why not. */
  private static String checkFrame(byte[] bytes, int offset, CRC32C crc) {
    if (bytes.length - offset < WalSegments.FRAME_HEADER_SIZE) {
      return "torn record header at offset " + offset;
    }
    int length = length(bytes, offset);
    int payload = offset + WalSegments.FRAME_HEADER_SIZE;
    if (length < 0 || length > bytes.length - payload) {
      return "torn record at offset " + offset;
    }
    crc.reset();
    crc.update(bytes, offset, 1);
    crc.update(bytes, payload, length);
    if ((int) crc.getValue() != readInt(bytes, offset + 5)) {
      return "checksum mismatch at offset " + offset;
    }
    return null;
  }

  /**
   * Where reading goes on after a bad frame at {@code offset}, or -1 for nowhere. When only its
   * payload or checksum is damaged, its length still leads to the next frame, and the payload is
   * not searched: it holds user data (label values) that could be made to look like a frame.
   */
  private static int resync(byte[] bytes, int offset, CRC32C crc) {
    if (bytes.length - offset < WalSegments.FRAME_HEADER_SIZE) {
      return -1; // a torn frame header: not even its length is there, and no frame fits after it
    }
    int length = length(bytes, offset);
    long next = (long) offset + WalSegments.FRAME_HEADER_SIZE + length;
    if (length >= 0 && next <= bytes.length) {
      if (next == bytes.length || checkFrame(bytes, (int) next, crc) == null) {
        return next == bytes.length ? -1 : (int) next;
      }
    }
    return nextValidFrame(bytes, offset + WalSegments.FRAME_HEADER_SIZE, crc);
  }

  /**
   * The first offset from {@code from} where a valid frame starts, or -1. Only offsets whose type
   * byte names a record type and whose length fits are checksummed, so random bytes cost little.
   */
  private static int nextValidFrame(byte[] bytes, int from, CRC32C crc) {
    for (int at = from; at + WalSegments.FRAME_HEADER_SIZE <= bytes.length; at++) {
      if (WalRecordCodec.isKnownType(bytes[at] & 0xff)
          && length(bytes, at) >= 0
          && length(bytes, at) <= bytes.length - at - WalSegments.FRAME_HEADER_SIZE
          && checkFrame(bytes, at, crc) == null) {
        return at;
      }
    }
    return -1;
  }

  static int length(byte[] bytes, int offset) {
    return readInt(bytes, offset + 1);
  }

  private static byte[] readAll(Path file) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE) {
        return null;
      }
      byte[] bytes = new byte[(int) size];
      ByteBuffer target = ByteBuffer.wrap(bytes);
      while (target.hasRemaining() && channel.read(target) >= 0) {
        // read until the buffer is full or the file ends
      }
      return bytes;
    }
  }

  static int readInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24)
        | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
