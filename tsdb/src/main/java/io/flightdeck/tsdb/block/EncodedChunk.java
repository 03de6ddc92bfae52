package io.flightdeck.tsdb.block;

import io.flightdeck.tsdb.chunk.ChunkEncoding;

/**
 * A chunk in the encoding a block stores it in: {@code data[offset, offset + length)} holds {@code
 * count} samples, the first at minTime, the last at maxTime, in {@link ChunkEncoding} {@code
 * encoding}.
 */
public record EncodedChunk(
    int encoding, byte[] data, int offset, int length, int count, long minTime, long maxTime) {
  /** The most samples a block's chunk holds. */
  public static final int MAX_SAMPLES = ChunkFiles.SAMPLES_PER_CHUNK;

  /** One encoder per thread: its buffers and zstd context are reused from chunk to chunk. */
  private static final ThreadLocal<ChunkEncoder> ENCODER =
      ThreadLocal.withInitial(ChunkEncoder::new);

  /**
   * Encodes samples {@code [from, from + count)} as a block stores them (see {@link ChunkEncoder}),
   * in an array of their own.
   *
   * @param times strictly increasing timestamps
   * @param count at most {@link #MAX_SAMPLES}
   */
  public static EncodedChunk of(long[] times, double[] values, int from, int count) {
    checkCount(count);
    ChunkEncoder encoder = ENCODER.get();
    byte[] data = encoder.encode(times, values, from, count);
    return new EncodedChunk(
        encoder.encoding(), data, 0, data.length, count, times[from], times[from + count - 1]);
  }

  /** As {@link #of(long[], double[], int, int)}, with the chunk's bytes in {@code slabs}. */
  public static EncodedChunk of(
      long[] times, double[] values, int from, int count, ChunkSlabs slabs) {
    checkCount(count);
    ChunkEncoder encoder = ENCODER.get();
    byte[] slab = slabs.reserve(ChunkEncoder.maxBytes(count));
    int at = slabs.position();
    int length = encoder.encode(times, values, from, count, slab, at);
    slabs.advance(length);
    return new EncodedChunk(
        encoder.encoding(), slab, at, length, count, times[from], times[from + count - 1]);
  }

  private static void checkCount(int count) {
    if (count < 1 || count > MAX_SAMPLES) {
      throw new IllegalArgumentException("a chunk holds 1 to 1024 samples, got " + count);
    }
  }
}
