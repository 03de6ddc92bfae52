package io.flightdeck.tsdb.wal;

import io.flightdeck.tsdb.encoding.CorruptDataException;
import io.flightdeck.tsdb.encoding.Decbuf;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.function.IntPredicate;
import java.util.zip.CRC32C;

/**
 * Reads the records of one segment in order. Stops at the first frame that is short or fails its
 * checksum and reports where: everything before that offset is good.
 */
final class WalSegmentReader {
  /** Outcome of reading one segment. */
  record Result(long records, long goodLength, String corruption) {
    boolean clean() {
      return corruption == null;
    }
  }

  private WalSegmentReader() {}

  /**
   * @param segment the segment's number, passed to {@link WalVisitor#position}
   * @param decode which record types to decode; the others are only checked and skipped
   */
  static Result read(Path file, int segment, IntPredicate decode, WalVisitor visitor)
      throws IOException {
    byte[] bytes;
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = channel.size();
      if (size > Integer.MAX_VALUE) {
        return new Result(0, 0, "segment larger than 2 GiB");
      }
      bytes = new byte[(int) size];
      ByteBuffer target = ByteBuffer.wrap(bytes);
      while (target.hasRemaining() && channel.read(target) >= 0) {
        // read until the buffer is full or the file ends
      }
    }
    if (bytes.length < WalSegments.HEADER_SIZE
        || !Arrays.equals(bytes, 0, 4, WalSegments.MAGIC, 0, 4)) {
      return new Result(0, 0, "missing or wrong segment header");
    }
    if (bytes[4] != WalSegments.VERSION) {
      return new Result(0, 0, "unsupported segment version " + bytes[4]);
    }
    int offset = WalSegments.HEADER_SIZE;
    long records = 0;
    CRC32C crc = new CRC32C();
    while (offset < bytes.length) {
      if (bytes.length - offset < WalSegments.FRAME_HEADER_SIZE) {
        return new Result(records, offset, "torn record header at offset " + offset);
      }
      int type = bytes[offset] & 0xff;
      int length = readInt(bytes, offset + 1);
      int expectedCrc = readInt(bytes, offset + 5);
      int payload = offset + WalSegments.FRAME_HEADER_SIZE;
      if (length < 0 || length > bytes.length - payload) {
        return new Result(records, offset, "torn record at offset " + offset);
      }
      crc.reset();
      crc.update(bytes, offset, 1);
      crc.update(bytes, payload, length);
      if ((int) crc.getValue() != expectedCrc) {
        return new Result(records, offset, "checksum mismatch at offset " + offset);
      }
      try {
        if (decode.test(type)) {
          visitor.position(segment, offset);
          WalRecordCodec.decode(type, Decbuf.wrap(bytes, payload, length), visitor);
        }
      } catch (CorruptDataException e) {
        return new Result(
            records, offset, "undecodable record at offset " + offset + ": " + e.getMessage());
      }
      records++;
      offset = payload + length;
    }
    return new Result(records, offset, null);
  }

  private static int readInt(byte[] b, int at) {
    return ((b[at] & 0xff) << 24)
        | ((b[at + 1] & 0xff) << 16)
        | ((b[at + 2] & 0xff) << 8)
        | (b[at + 3] & 0xff);
  }
}
