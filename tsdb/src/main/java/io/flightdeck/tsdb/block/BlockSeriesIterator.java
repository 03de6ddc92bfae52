package io.flightdeck.tsdb.block;

import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import java.util.List;

/**
 * Iterates a block series' chunks within [mint, maxt], skipping deleted ranges. Reusable through
 * {@link #reset}, with its chunk and decoding buffers.
 */
final class BlockSeriesIterator implements SampleIterator {
  private final ChunkDecoder decoder = new ChunkDecoder();
  private final ChunkReader.Chunk chunk = new ChunkReader.Chunk();
  private ChunkReader reader;
  private List<ChunkMeta> chunks;
  private List<long[]> deleted;
  private long mint;
  private long maxt;
  private SampleIterator current;
  private int chunkIndex;
  private boolean loaded;
  private boolean done;
  private boolean positioned;

  /** Starts over on another series (of any block). */
  BlockSeriesIterator reset(
      ChunkReader reader, List<ChunkMeta> chunks, List<long[]> deleted, long mint, long maxt) {
    this.reader = reader;
    this.chunks = chunks;
    this.deleted = deleted;
    this.mint = mint;
    this.maxt = maxt;
    current = null;
    chunkIndex = -1;
    loaded = false;
    done = false;
    positioned = false;
    return this;
  }

  @Override
  public boolean next() {
    while (!done) {
      if (!loaded || !current.next()) {
        if (!loadChunk(chunkIndex + 1)) {
          done = true;
          return false;
        }
        continue;
      }
      long t = current.timestamp();
      if (t > maxt) {
        done = true;
        return false;
      }
      if (t >= mint && (deleted.isEmpty() || !isDeleted(t))) {
        positioned = true;
        return true;
      }
    }
    return false;
  }

  private boolean loadChunk(int index) {
    chunkIndex = index;
    if (index >= chunks.size()) {
      return false;
    }
    reader.read(chunks.get(index).ref(), chunk);
    current = decoder.decode(chunk.encoding, chunk.data, 0, chunk.length, chunk.count, chunk.count);
    loaded = true;
    return true;
  }

  private boolean isDeleted(long t) {
    for (long[] range : deleted) {
      if (t >= range[0] && t <= range[1]) {
        return true;
      }
    }
    return false;
  }

  @Override
  public boolean seek(long t) {
    if (done) {
      return false;
    }
    if (positioned && current.timestamp() >= t) {
      return true;
    }
    // Skip whole chunks that end before t without decoding them.
    int skipTo = chunkIndex + 1;
    while (skipTo < chunks.size() && chunks.get(skipTo).maxTime() < t) {
      skipTo++;
    }
    if (skipTo > chunkIndex + 1 || !loaded) {
      loaded = false;
      chunkIndex = skipTo - 1;
    }
    while (next()) {
      if (current.timestamp() >= t) {
        return true;
      }
    }
    return false;
  }

  /** Chunk by chunk: a block's chunks are ordered and never overlap. */
  @Override
  public boolean drainTo(SampleBuffer out, long maxt) {
    if (!deleted.isEmpty()) {
      return SampleIterator.super.drainTo(out, maxt);
    }
    long limit = Math.min(maxt, this.maxt);
    done = true;
    while (!current.drainTo(out, limit)) {
      do {
        if (!loadChunk(chunkIndex + 1)) {
          return false;
        }
      } while (!current.next());
    }
    // Stopped at a sample: one this iterator would have shown only if within its own range.
    return current.timestamp() <= this.maxt;
  }

  @Override
  public long timestamp() {
    return current.timestamp();
  }

  @Override
  public double value() {
    return current.value();
  }
}
