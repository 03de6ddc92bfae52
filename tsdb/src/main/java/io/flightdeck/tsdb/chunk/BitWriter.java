package io.flightdeck.tsdb.chunk;

import java.util.Arrays;

/** Appends bits, most significant first, into a growing byte array. Not thread-safe. */
final class BitWriter {
  private byte[] bytes;
  private long bitLength;

  BitWriter(int initialBytes) {
    this.bytes = new byte[Math.max(initialBytes, 8)];
  }

  BitWriter(byte[] existing, long bitLength) {
    this.bytes = existing;
    this.bitLength = bitLength;
  }

  long bitLength() {
    return bitLength;
  }

  int byteLength() {
    return (int) ((bitLength + 7) >>> 3);
  }

  byte[] buffer() {
    return bytes;
  }

  void writeBit(boolean bit) {
    ensure(1);
    if (bit) {
      int index = (int) (bitLength >>> 3);
      bytes[index] |= (byte) (0x80 >>> (bitLength & 7));
    }
    bitLength++;
  }

  /** Writes the low {@code count} bits of {@code value}, 0 <= count <= 64. */
  void writeBits(long value, int count) {
    ensure(count);
    while (count > 0) {
      int index = (int) (bitLength >>> 3);
      int free = 8 - (int) (bitLength & 7);
      int take = Math.min(free, count);
      int chunk = (int) ((value >>> (count - take)) & ((1L << take) - 1));
      bytes[index] |= (byte) (chunk << (free - take));
      bitLength += take;
      count -= take;
    }
  }

  private void ensure(int bits) {
    long needed = (bitLength + bits + 7) >>> 3;
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, (int) Math.max(needed, bytes.length * 2L));
    }
  }
}
