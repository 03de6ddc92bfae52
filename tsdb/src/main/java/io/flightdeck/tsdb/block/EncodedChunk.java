package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorBatchEncoder;

/**
 * A chunk in the encoding a block stores it in: {@code data[offset, offset + length)} holds {@code
 * count} samples, the first at minTime, the last at maxTime, in {@link ChunkEncoding} {@code
 * encoding}.
 */
public record EncodedChunk(
    int encoding, byte[] data, int offset, int length, int count, long minTime, long maxTime) {
  /** The most samples a block's chunk holds. */
  public static final int MAX_SAMPLES = ChunkFiles.SAMPLES_PER_CHUNK;

  /** XOR chunks are encoded in one kept buffer per thread and copied out at their size. */
  private static final ThreadLocal<XorBatchEncoder> XOR_SCRATCH =
      ThreadLocal.withInitial(XorBatchEncoder::new);

  /**
   * Encodes samples {@code [from, from + count)} as a block stores them, in an array of their own:
   * decimal when every value allows it, else XOR.
   *
   * @param times strictly increasing timestamps
   * @param count at most {@link #MAX_SAMPLES}
   */
  public static EncodedChunk of(long[] times, double[] values, int from, int count) {
    checkCount(count);
    long minTime = times[from];
    long maxTime = times[from + count - 1];
    byte[] decimal = DecimalChunk.encode(times, values, from, count);
    if (decimal != null) {
      return new EncodedChunk(
          ChunkEncoding.DECIMAL, decimal, 0, decimal.length, count, minTime, maxTime);
    }
    XorBatchEncoder xor = XOR_SCRATCH.get();
    xor.encode(times, values, from, count);
    return new EncodedChunk(
        ChunkEncoding.XOR, xor.toBytes(), 0, xor.byteLength(), count, minTime, maxTime);
  }

  /** As {@link #of(long[], double[], int, int)}, with the chunk's bytes in {@code slabs}. */
  public static EncodedChunk of(
      long[] times, double[] values, int from, int count, ChunkSlabs slabs) {
    checkCount(count);
    long minTime = times[from];
    long maxTime = times[from + count - 1];
    byte[] slab = slabs.reserve(maxBytes(count));
    int at = slabs.position();
    int length = DecimalChunk.encode(times, values, from, count, slab, at);
    int encoding = ChunkEncoding.DECIMAL;
    if (length < 0) {
      XorBatchEncoder xor = XOR_SCRATCH.get();
      xor.encode(times, values, from, count);
      xor.copyTo(slab, at);
      length = xor.byteLength();
      encoding = ChunkEncoding.XOR;
    }
    slabs.advance(length);
    return new EncodedChunk(encoding, slab, at, length, count, minTime, maxTime);
  }

  /** The most bytes a chunk of {@code count} samples takes, in either encoding. */
  static int maxBytes(int count) {
    return Math.max(DecimalChunk.maxEncodedSize(count), XorBatchEncoder.maxBytes(count));
  }

  private static void checkCount(int count) {
    if (count < 1 || count > MAX_SAMPLES) {
      throw new IllegalArgumentException("a chunk holds 1 to 1024 samples, got " + count);
    }
  }
}
