package io.flightdeck.tsdb.chunk;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Reads bits, most significant first, from a byte range. Not thread-safe; reusable via reset. */
final class BitReader {
  private static final VarHandle BIG_ENDIAN_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);

  private byte[] bytes;
  private long position;
  private long end;

  void reset(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = (long) offset << 3;
    this.end = (long) (offset + length) << 3;
  }

  /**
   * The next 64 bits, first bit in the sign, without consuming them. Bits past the range are
   * undefined, but {@link #skip} refuses to consume them. Decoders read a sample's control bits
   * from one peek instead of bit by bit.
   */
  long peek64() {
    int index = (int) (position >>> 3);
    int shift = (int) (position & 7);
    long window = load64(index) << shift;
    if (shift > 0 && index + 8 < bytes.length) {
      window |= (bytes[index + 8] & 0xffL) >>> (8 - shift);
    }
    return window;
  }

  /** Consumes {@code count} bits already seen through {@link #peek64}. */
  void skip(int count) {
    if (position + count > end) {
      throw new ChunkCorruptException("chunk ends in the middle of a sample");
    }
    position += count;
  }

  /** Reads {@code count} bits, 0 <= count <= 64, as the low bits of the result. */
  long readBits(int count) {
    if (position + count > end) {
      throw new ChunkCorruptException("chunk ends in the middle of a sample");
    }
    if (count == 0) {
      return 0;
    }
    // One 64-bit window instead of a loop per byte: values and deltas are read in a few steps.
    int index = (int) (position >>> 3);
    int shift = (int) (position & 7);
    long window = load64(index);
    long result = (window << shift) >>> (64 - count);
    int extra = shift + count - 64;
    if (extra > 0) {
      result |= (bytes[index + 8] & 0xffL) >>> (8 - extra);
    }
    position += count;
    return result;
  }

  /** Eight bytes from {@code index}, big-endian; bytes past the array read as zero. */
  private long load64(int index) {
    if (index + 8 <= bytes.length) {
      return (long) BIG_ENDIAN_LONG.get(bytes, index);
    }
    long window = 0;
    for (int i = 0; i < 8; i++) {
      window <<= 8;
      if (index + i < bytes.length) {
        window |= bytes[index + i] & 0xffL;
      }
    }
    return window;
  }
}
