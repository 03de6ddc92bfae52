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
    if (count == 0) {
      return;
    }
    ensure(count);
    // The value, left-aligned at the current bit, is OR-ed in whole bytes: one to three for the
    // usual control bits and deltas. The bits after bitLength are still zero. (A 64-bit
    // read-modify-write through a VarHandle was slower under C1, which the import runs on.)
    int at = (int) (bitLength >>> 3);
    int offset = (int) (bitLength & 7);
    long aligned = value << (64 - count);
    long window = aligned >>> offset;
    int end = offset + count;
    int touched = Math.min((end + 7) >>> 3, 8);
    for (int k = 0; k < touched; k++) {
      bytes[at + k] |= (byte) (window >>> (56 - 8 * k));
    }
    if (end > 64) {
      bytes[at + 8] |= (byte) ((aligned << (64 - offset)) >>> 56);
    }
    bitLength += count;
  }

  private void ensure(int bits) {
    long needed = (bitLength + bits + 7) >>> 3;
    if (needed > bytes.length) {
      bytes = Arrays.copyOf(bytes, (int) Math.max(needed, bytes.length * 2L));
    }
  }
}
