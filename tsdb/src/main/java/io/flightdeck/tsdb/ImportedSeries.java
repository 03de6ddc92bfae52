package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.block.EncodedChunk;
import io.flightdeck.tsdb.block.EncodedChunkedSeries;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * One series of a {@link BlockImport}: the samples buffered since the last flush, in chunks that
 * never cross a block window, so a flush hands each window exactly its chunks. The open chunk's
 * samples are kept as they came; a full chunk is encoded once, as a block stores it (decimal or
 * XOR, see {@link EncodedChunk#of}), so a flush writes its bytes without decoding or encoding
 * anything (see {@link EncodedChunkedSeries}). The newest timestamp and value outlive a flush:
 * samples must keep increasing across flushes. Not thread-safe.
 */
final class ImportedSeries {
  /** Samples per chunk, as in blocks. */
  static final int SAMPLES_PER_CHUNK = EncodedChunk.MAX_SAMPLES;

  /** Rough heap cost of a chunk beyond its encoded bytes, for the memory bound. */
  static final int CHUNK_OVERHEAD_BYTES = 48;

  /** Heap bytes per sample in the open chunk (a timestamp and a value). */
  static final int OPEN_SAMPLE_BYTES = Long.BYTES + Double.BYTES;

  private static final int FIRST_OPEN_CAPACITY = 32;

  final Labels labels;
  final int ref;
  private final long window;
  private final List<EncodedChunk> chunks = new ArrayList<>();
  private long[] openTimes;
  private double[] openValues;
  private int openCount;
  private long openWindowEnd;
  private long maxTime = Long.MIN_VALUE;
  private double lastValue;

  /** Whether the series is in this flush's list of series with samples. */
  boolean listed;

  /** Whether the series is in the import's list of series with an open chunk. */
  boolean open;

  /** The import's commit that last gave this series a sample. */
  long lastCommit;

  /**
   * Newest timestamp and its value in the unfinished appender batch; Long.MIN_VALUE when the batch
   * has none. Only one appender is open at a time (see {@link BlockImport}).
   */
  long pendingMaxTime = Long.MIN_VALUE;

  double pendingLastValue;

  ImportedSeries(int ref, Labels labels, long window) {
    this.ref = ref;
    this.labels = labels;
    this.window = window;
  }

  long maxTime() {
    return maxTime;
  }

  double lastValue() {
    return lastValue;
  }

  /**
   * Appends a sample newer than every sample so far and returns how many buffered bytes that added
   * (or, when it sealed the open chunk, removed).
   */
  long append(long t, double v) {
    long added = 0;
    if (openCount > 0 && (openCount == SAMPLES_PER_CHUNK || t >= openWindowEnd)) {
      added += sealChunk();
    }
    if (openCount == 0) {
      openWindowEnd = Math.floorDiv(t, window) * window + window;
    }
    if (openTimes == null || openCount == openTimes.length) {
      added += growOpenChunk();
    }
    openTimes[openCount] = t;
    openValues[openCount] = v;
    openCount++;
    maxTime = t;
    lastValue = v;
    return added;
  }

  /**
   * Encodes the open chunk, if any, and lets go of its arrays, so that a flush sees every sample in
   * an encoded chunk and an idle series holds no open chunk. Returns the change in buffered bytes.
   */
  long seal() {
    long change = openCount > 0 ? sealChunk() : 0;
    if (openTimes != null) {
      change -= (long) openTimes.length * OPEN_SAMPLE_BYTES;
      openTimes = null;
      openValues = null;
    }
    return change;
  }

  /** Encodes the open chunk; its arrays are kept for the next one. */
  private long sealChunk() {
    EncodedChunk chunk = EncodedChunk.of(openTimes, openValues, openCount);
    chunks.add(chunk);
    openCount = 0;
    return chunk.length() + CHUNK_OVERHEAD_BYTES;
  }

  /** Doubles the open chunk's arrays, up to a chunk's samples; returns the bytes added. */
  private long growOpenChunk() {
    int before = openTimes == null ? 0 : openTimes.length;
    int capacity = before == 0 ? FIRST_OPEN_CAPACITY : Math.min(2 * before, SAMPLES_PER_CHUNK);
    openTimes = openTimes == null ? new long[capacity] : Arrays.copyOf(openTimes, capacity);
    openValues = openValues == null ? new double[capacity] : Arrays.copyOf(openValues, capacity);
    return (long) (capacity - before) * OPEN_SAMPLE_BYTES;
  }

  /** Adds the start of every block window holding buffered samples to {@code windows}. */
  void addWindows(Set<Long> windows) {
    long last = Long.MIN_VALUE;
    for (EncodedChunk c : chunks) {
      long start = Math.floorDiv(c.minTime(), window) * window;
      if (start != last) {
        windows.add(start);
        last = start;
      }
    }
  }

  /**
   * The buffered samples of the window starting at {@code start} (call after {@link #seal()});
   * {@code reuse} is an iterator from an earlier call or null. Safe to call from several threads
   * while nothing is appended.
   */
  SampleIterator window(long start, SampleIterator reuse) {
    ChunksIterator it = reuse instanceof ChunksIterator c ? c : new ChunksIterator();
    return it.reset(windowChunks(start));
  }

  /** The chunks of the window starting at {@code start}, as {@link #window} but undecoded. */
  List<EncodedChunk> windowChunks(long start) {
    return chunks.subList(firstChunkFrom(start), firstChunkFrom(start + window));
  }

  /** Whether the window starting at {@code start} holds buffered samples. */
  boolean hasWindow(long start) {
    int from = firstChunkFrom(start);
    return from < chunks.size() && chunks.get(from).minTime() < start + window;
  }

  /** Index of the first chunk starting at or after {@code t}; chunks are in time order. */
  private int firstChunkFrom(long t) {
    int lo = 0;
    int hi = chunks.size();
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (chunks.get(mid).minTime() < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Forgets the buffered samples once they are in blocks (call after {@link #seal()}). */
  void clear() {
    chunks.clear();
  }

  /** Walks the samples of consecutive chunks. */
  private static final class ChunksIterator implements SampleIterator {
    private final ChunkDecoder decoder = new ChunkDecoder();
    private SampleIterator chunk;
    private List<EncodedChunk> chunks = List.of();
    private int index;
    private boolean positioned;

    ChunksIterator reset(List<EncodedChunk> chunks) {
      this.chunks = chunks;
      this.index = -1;
      this.positioned = false;
      return this;
    }

    @Override
    public boolean next() {
      if (positioned && chunk.next()) {
        return true;
      }
      while (++index < chunks.size()) {
        EncodedChunk c = chunks.get(index);
        chunk = decoder.decode(c.encoding(), c.data(), c.count(), c.count());
        if (chunk.next()) {
          positioned = true;
          return true;
        }
      }
      positioned = false;
      index = chunks.size();
      return false;
    }

    @Override
    public boolean seek(long t) {
      if (positioned && chunk.timestamp() >= t) {
        return true;
      }
      while (next()) {
        if (chunk.timestamp() >= t) {
          return true;
        }
      }
      return false;
    }

    @Override
    public long timestamp() {
      return chunk.timestamp();
    }

    @Override
    public double value() {
      return chunk.value();
    }
  }
}
