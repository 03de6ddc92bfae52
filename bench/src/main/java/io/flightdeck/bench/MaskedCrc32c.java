package io.flightdeck.bench;

import java.util.zip.CRC32C;

/** TFRecord's checksum: CRC32C rotated right by 15 plus a constant. Not thread-safe. */
final class MaskedCrc32c {
  private final CRC32C crc = new CRC32C();

  int of(byte[] data, int offset, int length) {
    crc.reset();
    crc.update(data, offset, length);
    int c = (int) crc.getValue();
    return ((c >>> 15) | (c << 17)) + 0xa282ead8;
  }
}
