package io.flightdeck.tsdb.block;

import io.flightdeck.storage.Series;
import java.util.List;

/**
 * A series that already holds its samples as chunks in a block's encodings (see {@link
 * EncodedChunk#of}), each of at most {@link EncodedChunk#MAX_SAMPLES} samples: {@link BlockWriter}
 * writes their bytes as they are, decoding and encoding nothing.
 */
public interface EncodedChunkedSeries extends Series {
  /** The chunks holding this series' samples in [mint, maxt), in time order. */
  List<EncodedChunk> encodedChunks(long mint, long maxt);
}
