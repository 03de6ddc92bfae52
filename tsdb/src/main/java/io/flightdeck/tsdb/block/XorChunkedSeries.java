package io.flightdeck.tsdb.block;

import io.flightdeck.storage.Series;
import java.util.List;

/**
 * A series that already holds its samples as XOR chunks cut the way {@link BlockWriter} cuts them:
 * {@link #SAMPLES_PER_CHUNK} samples each from the first sample of the block's range, the last one
 * possibly fewer. The writer then decodes a chunk only to try the decimal encoding, and where that
 * declines writes the chunk's bytes as they are instead of encoding every sample again.
 */
public interface XorChunkedSeries extends Series {
  int SAMPLES_PER_CHUNK = ChunkFiles.SAMPLES_PER_CHUNK;

  /**
   * {@code data[0, length)} holds {@code count} samples, the first at minTime, the last at maxTime.
   */
  record XorChunk(byte[] data, int length, int count, long minTime, long maxTime) {}

  /** The chunks holding this series' samples in [mint, maxt), in time order. */
  List<XorChunk> xorChunks(long mint, long maxt);
}
