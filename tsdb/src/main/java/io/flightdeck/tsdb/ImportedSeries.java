package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.block.ChunkSlabs;
import io.flightdeck.tsdb.block.EncodedChunk;
import io.flightdeck.tsdb.block.EncodedChunkedSeries;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One series of a {@link BlockImport}: the samples buffered since the last flush, in chunks that
 * never cross a block window, so a flush hands each window exactly its chunks. The open chunk's
 * samples are kept as they came, the appender's uncommitted ones after them; a commit encodes the
 * chunks it completed, once, as a block stores them (decimal or XOR, see {@link EncodedChunk#of}),
 * so a flush writes their bytes without decoding or encoding anything (see {@link
 * EncodedChunkedSeries}), and a rollback only truncates the open chunk. The newest timestamp and
 * value outlive a flush: samples must keep increasing across flushes. Not thread-safe.
 */
final class ImportedSeries {
  /** Samples per chunk, as in blocks. */
  static final int SAMPLES_PER_CHUNK = EncodedChunk.MAX_SAMPLES;

  /** Rough heap cost of a chunk beyond its encoded bytes, for the memory bound. */
  static final int CHUNK_OVERHEAD_BYTES = 48;

  /** Heap bytes per sample in the open chunk (a timestamp and a value). */
  static final int OPEN_SAMPLE_BYTES = Long.BYTES + Double.BYTES;

  final Labels labels;
  final int ref;
  private final long window;
  private final OpenChunkArrays arrays;
  private final ChunkSlabs slabs;
  private final List<EncodedChunk> chunks = new ArrayList<>();

  /** The open chunk's samples, committed ones first; pending ones may run past a chunk's size. */
  private long[] openTimes;

  private double[] openValues;
  private int openCount;
  private int committedCount;

  /** The open arrays' bytes as last counted in the import's buffered bytes. */
  private long countedOpenBytes;

  private long maxTime = Long.MIN_VALUE;
  private double lastValue;
  private long committedMaxTime = Long.MIN_VALUE;
  private double committedLastValue;

  /** Whether the series is in this flush's list of series with samples. */
  boolean listed;

  /** Whether the series is in the import's list of series with an open chunk. */
  boolean open;

  /** The import's commit that last gave this series a sample. */
  long lastCommit;

  /** The appender batch that last gave this series a sample (see {@link BlockImport#appender}). */
  long lastBatch;

  /**
   * @param arrays where the open chunk's arrays come from and go back to, shared by the import's
   *     series
   * @param slabs where encoded chunks' bytes go, shared by the import's series
   */
  ImportedSeries(int ref, Labels labels, long window, OpenChunkArrays arrays, ChunkSlabs slabs) {
    this.ref = ref;
    this.labels = labels;
    this.window = window;
    this.arrays = arrays;
    this.slabs = slabs;
  }

  /** Newest timestamp appended, committed or not; Long.MIN_VALUE before the first. */
  long maxTime() {
    return maxTime;
  }

  /** The value at {@link #maxTime()}. */
  double lastValue() {
    return lastValue;
  }

  /** Appends a pending sample, newer than every sample so far (the appender checked that). */
  void append(long t, double v) {
    if (openTimes == null || openCount == openTimes.length) {
      growOpenChunk();
    }
    openTimes[openCount] = t;
    openValues[openCount] = v;
    openCount++;
    maxTime = t;
    lastValue = v;
  }

  /**
   * Makes the pending samples committed: encodes each chunk they completed (a chunk is complete
   * when it holds a chunk's samples or a later sample falls in the next window) and keeps the rest
   * open. Returns the change in buffered bytes.
   */
  long commitPending() {
    long change = 0;
    int start = 0;
    while (start < openCount) {
      long windowEnd = Math.floorDiv(openTimes[start], window) * window + window;
      int end = Math.min(start + SAMPLES_PER_CHUNK, openCount);
      if (openTimes[end - 1] >= windowEnd) {
        end = firstAtOrAfter(windowEnd, start, end);
      } else if (end - start < SAMPLES_PER_CHUNK) {
        break; // the open chunk has room and its window goes on
      }
      change += sealChunk(start, end);
      start = end;
    }
    if (start > 0) {
      openCount -= start;
      System.arraycopy(openTimes, start, openTimes, 0, openCount);
      System.arraycopy(openValues, start, openValues, 0, openCount);
    }
    committedCount = openCount;
    committedMaxTime = maxTime;
    committedLastValue = lastValue;
    return change + recountOpenBytes();
  }

  /** Forgets the pending samples. */
  void rollbackPending() {
    openCount = committedCount;
    maxTime = committedMaxTime;
    lastValue = committedLastValue;
  }

  /**
   * Encodes the open chunk, if any, and lets go of its arrays, so that a flush sees every sample in
   * an encoded chunk and an idle series holds no open chunk. Only between batches: nothing may be
   * pending. Returns the change in buffered bytes.
   */
  long seal() {
    long change = openCount > 0 ? sealChunk(0, openCount) : 0;
    openCount = 0;
    committedCount = 0;
    if (openTimes != null) {
      arrays.giveBack(openTimes, openValues);
      openTimes = null;
      openValues = null;
    }
    return change + recountOpenBytes();
  }

  /** Encodes samples {@code [from, to)} of the open arrays as a chunk; returns its bytes. */
  private long sealChunk(int from, int to) {
    EncodedChunk chunk = EncodedChunk.of(openTimes, openValues, from, to - from, slabs);
    chunks.add(chunk);
    return chunk.length() + CHUNK_OVERHEAD_BYTES;
  }

  /** Index of the first open sample in {@code [from, to)} at or after {@code t}. */
  private int firstAtOrAfter(long t, int from, int to) {
    int lo = from;
    int hi = to;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (openTimes[mid] < t) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /** Doubles the open chunk's arrays (past a chunk's samples only while samples are pending). */
  private void growOpenChunk() {
    int capacity = openTimes == null ? OpenChunkArrays.FIRST_CAPACITY : 2 * openTimes.length;
    long[] times = arrays.times(capacity);
    double[] values = arrays.values(capacity);
    if (openTimes != null) {
      System.arraycopy(openTimes, 0, times, 0, openCount);
      System.arraycopy(openValues, 0, values, 0, openCount);
      arrays.giveBack(openTimes, openValues);
    }
    openTimes = times;
    openValues = values;
  }

  /** Brings the open arrays' share of the buffered bytes up to date; returns the change. */
  private long recountOpenBytes() {
    long bytes = openTimes == null ? 0 : (long) openTimes.length * OPEN_SAMPLE_BYTES;
    long change = bytes - countedOpenBytes;
    countedOpenBytes = bytes;
    return change;
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
        chunk =
            decoder.decode(c.encoding(), c.data(), c.offset(), c.length(), c.count(), c.count());
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
