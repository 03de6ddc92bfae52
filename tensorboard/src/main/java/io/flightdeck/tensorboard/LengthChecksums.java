package io.flightdeck.tensorboard;

import java.util.zip.CRC32C;

/**
 * The masked CRC-32C of TFRecord length fields, remembered by length. A file's records repeat a few
 * lengths (every scalar of one tag has the same), and the same eight bytes always have the same
 * checksum: a lookup replaces computing it for every record, a tenth of a second of a 1 GB import's
 * framing. Direct-mapped by the length's low bits, each slot holding a length and its checksum
 * computed in full; every slot starts with a real pair, so no length is ever matched to a checksum
 * that is not its own. Not thread-safe.
 */
final class LengthChecksums {
  private static final int SLOTS = 64;

  private final CRC32C crc = new CRC32C();
  private final byte[] bytes = new byte[Long.BYTES];
  private final long[] lengths = new long[SLOTS];
  private final int[] checksums = new int[SLOTS];

  LengthChecksums() {
    for (int slot = 0; slot < SLOTS; slot++) {
      remember(slot, SLOTS + slot);
    }
  }

  /** {@link MaskedCrc32c} of {@code length} as its eight little-endian bytes. */
  int of(long length) {
    int slot = (int) length & (SLOTS - 1);
    if (lengths[slot] != length) {
      remember(slot, length);
    }
    return checksums[slot];
  }

  private void remember(int slot, long length) {
    for (int i = 0; i < Long.BYTES; i++) {
      bytes[i] = (byte) (length >>> (8 * i));
    }
    lengths[slot] = length;
    checksums[slot] = MaskedCrc32c.of(crc, bytes, 0, Long.BYTES);
  }
}
