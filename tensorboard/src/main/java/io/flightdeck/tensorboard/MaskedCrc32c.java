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
    CRC32C crc = new CRC32C();
    crc.update(bytes, offset, length);
    int value = (int) crc.getValue();
    return Integer.rotateRight(value, 15) + MASK_DELTA;
  }
}
