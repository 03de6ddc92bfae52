package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.DecimalChunk;
import io.flightdeck.tsdb.chunk.XorEncoder;

/**
 * A chunk in the encoding a block stores it in: {@code data[0, length)} holds {@code count}
 * samples, the first at minTime, the last at maxTime, in {@link ChunkEncoding} {@code encoding}.
 */
public record EncodedChunk(
    int encoding, byte[] data, int length, int count, long minTime, long maxTime) {
  /** The most samples a block's chunk holds. */
  public static final int MAX_SAMPLES = ChunkFiles.SAMPLES_PER_CHUNK;

  /**
   * Encodes samples as a block stores them: decimal when every value allows it, else XOR.
   *
   * @param times strictly increasing timestamps; at most {@link #MAX_SAMPLES}
   */
  public static EncodedChunk of(long[] times, double[] values, int count) {
    if (count < 1 || count > MAX_SAMPLES) {
      throw new IllegalArgumentException("a chunk holds 1 to 1024 samples, got " + count);
    }
    long minTime = times[0];
    long maxTime = times[count - 1];
    byte[] decimal = DecimalChunk.encode(times, values, count);
    if (decimal != null) {
      return new EncodedChunk(
          ChunkEncoding.DECIMAL, decimal, decimal.length, count, minTime, maxTime);
    }
    XorEncoder xor = new XorEncoder(8 * count + 16);
    for (int i = 0; i < count; i++) {
      xor.append(times[i], values[i]);
    }
    return new EncodedChunk(
        ChunkEncoding.XOR, xor.toBytes(), xor.byteLength(), count, minTime, maxTime);
  }
}
