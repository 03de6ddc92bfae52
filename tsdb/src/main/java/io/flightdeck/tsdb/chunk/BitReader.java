package io.flightdeck.tsdb.chunk;

/** Reads bits, most significant first, from a byte range. Not thread-safe; reusable via reset. */
final class BitReader {
  private byte[] bytes;
  private long position;
  private long end;

  void reset(byte[] bytes, int offset, int length) {
    this.bytes = bytes;
    this.position = (long) offset << 3;
    this.end = (long) (offset + length) << 3;
  }

  boolean readBit() {
    if (position >= end) {
      throw new ChunkCorruptException("chunk ends in the middle of a sample");
    }
    int index = (int) (position >>> 3);
    boolean bit = ((bytes[index] >>> (7 - (position & 7))) & 1) != 0;
    position++;
    return bit;
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
      return (bytes[index] & 0xffL) << 56
          | (bytes[index + 1] & 0xffL) << 48
          | (bytes[index + 2] & 0xffL) << 40
          | (bytes[index + 3] & 0xffL) << 32
          | (bytes[index + 4] & 0xffL) << 24
          | (bytes[index + 5] & 0xffL) << 16
          | (bytes[index + 6] & 0xffL) << 8
          | (bytes[index + 7] & 0xffL);
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
