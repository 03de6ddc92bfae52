package io.flightdeck.tsdb.chunk;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/** Appends bits, most significant first, into a growing byte array. Not thread-safe. */
final class BitWriter {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

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
    int at = (int) (bitLength >>> 3);
    if (at + 9 <= bytes.length) {
      // One 64-bit read-modify-write (and at most one spilled byte) instead of a loop per byte:
      // the bits after bitLength are still zero, so OR-ing the left-aligned value in is enough.
      int offset = (int) (bitLength & 7);
      long aligned = value << (64 - count);
      long word = (long) BIG_ENDIAN_LONG.get(bytes, at);
      BIG_ENDIAN_LONG.set(bytes, at, word | (aligned >>> offset));
      if (offset + count > 64) {
        bytes[at + 8] |= (byte) ((aligned << (64 - offset)) >>> 56);
      }
      bitLength += count;
      return;
    }
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
