package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorBatchEncoder;

/**
 * A chunk in the encoding a block stores it in: {@code data[0, length)} holds {@code count}
 * samples, the first at minTime, the last at maxTime, in {@link ChunkEncoding} {@code encoding}.
 */
public record EncodedChunk(
    int encoding, byte[] data, int length, int count, long minTime, long maxTime) {
  /** The most samples a block's chunk holds. */
  public static final int MAX_SAMPLES = ChunkFiles.SAMPLES_PER_CHUNK;

  /** XOR chunks are encoded in one kept buffer per thread and copied out at their size. */
  private static final ThreadLocal<XorBatchEncoder> XOR_SCRATCH =
      ThreadLocal.withInitial(XorBatchEncoder::new);

  /**
   * Encodes samples {@code [from, from + count)} as a block stores them: decimal when every value
   * allows it, else XOR.
   *
   * @param times strictly increasing timestamps
   * @param count at most {@link #MAX_SAMPLES}
   */
  public static EncodedChunk of(long[] times, double[] values, int from, int count) {
    if (count < 1 || count > MAX_SAMPLES) {
      throw new IllegalArgumentException("a chunk holds 1 to 1024 samples, got " + count);
    }
    long minTime = times[from];
    long maxTime = times[from + count - 1];
    byte[] decimal = DecimalChunk.encode(times, values, from, count);
    if (decimal != null) {
      return new EncodedChunk(
          ChunkEncoding.DECIMAL, decimal, decimal.length, count, minTime, maxTime);
    }
    XorBatchEncoder xor = XOR_SCRATCH.get();
    xor.encode(times, values, from, count);
    return new EncodedChunk(
        ChunkEncoding.XOR, xor.toBytes(), xor.byteLength(), count, minTime, maxTime);
  }
}
