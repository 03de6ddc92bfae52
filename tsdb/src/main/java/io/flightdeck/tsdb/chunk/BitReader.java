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
    long result = 0;
    while (count > 0) {
      int index = (int) (position >>> 3);
      int available = 8 - (int) (position & 7);
      int take = Math.min(available, count);
      int chunk = ((bytes[index] & 0xff) >>> (available - take)) & ((1 << take) - 1);
      result = (result << take) | chunk;
      position += take;
      count -= take;
    }
    return result;
  }
}
