package io.flightdeck.tensorboard;

import java.util.zip.CRC32C;

/**
 * The checksum TFRecord framing uses: CRC-32C, then LevelDB's mask (rotate right by 15, add a
 * constant), which keeps a CRC stored inside checksummed data from cancelling itself out.
 */
final class MaskedCrc32c {
  private static final int MASK_DELTA = 0xa282ead8;

  private MaskedCrc32c() {}

  static int of(byte[] bytes, int offset, int length) {
    return of(new CRC32C(), bytes, offset, length);
  }

  /** Computes with {@code crc}, which is reset first: lets a reader reuse one per record. */
  static int of(CRC32C crc, byte[] bytes, int offset, int length) {
    crc.reset();
    crc.update(bytes, offset, length);
    int value = (int) crc.getValue();
    return Integer.rotateRight(value, 15) + MASK_DELTA;
  }
}
