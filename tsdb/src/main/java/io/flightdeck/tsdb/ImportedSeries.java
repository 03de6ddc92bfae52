package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.block.XorChunkedSeries;
import io.flightdeck.tsdb.block.XorChunkedSeries.XorChunk;
import io.flightdeck.tsdb.chunk.XorEncoder;
import io.flightdeck.tsdb.chunk.XorIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * One series of a {@link BlockImport}: the samples buffered since the last flush, XOR-compressed in
 * chunks that never cross a block window, so a flush hands each window exactly its chunks. The
 * newest timestamp and value outlive a flush: samples must keep increasing across flushes. Not
 * thread-safe.
 */
final class ImportedSeries {
  /**
   * Samples per buffered chunk, as in blocks: a flush then hands the block writer chunks it can
   * write as they are (see {@link XorChunkedSeries}).
   */
  static final int SAMPLES_PER_CHUNK = XorChunkedSeries.SAMPLES_PER_CHUNK;

  /**
   * Rough heap cost of a series and of a chunk beyond their encoded bytes, for the memory bound.
   */
  static final int SERIES_OVERHEAD_BYTES = 256;

  static final int CHUNK_OVERHEAD_BYTES = 48;

  final Labels labels;
  final int ref;
  private final long window;
  private final List<XorChunk> chunks = new ArrayList<>();
  private XorEncoder open;
  private long openMinTime;
  private long openWindowEnd;
  private long maxTime = Long.MIN_VALUE;
  private double lastValue;

  /** Bytes of the chunk sealed last: the next one's likely size. */
  private int lastChunkBytes = 48;

  /** Whether the series is in this flush's list of series with samples. */
  boolean listed;

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
   * Appends a sample newer than every sample so far and returns how many buffered bytes it added.
   */
  int append(long t, double v) {
    if (open != null && (open.count() >= SAMPLES_PER_CHUNK || t >= openWindowEnd)) {
      seal();
    }
    int before;
    if (open == null) {
      // Sized like the previous chunk, the buffer is rarely regrown and becomes the sealed chunk
      // as it is; from a fixed 64 bytes it was copied four times on the way to the usual 300.
      open = new XorEncoder(lastChunkBytes + 16);
      openMinTime = t;
      openWindowEnd = Math.floorDiv(t, window) * window + window;
      before = -CHUNK_OVERHEAD_BYTES;
    } else {
      before = open.byteLength();
    }
    open.append(t, v);
    maxTime = t;
    lastValue = v;
    return open.byteLength() - before;
  }

  /** Closes the chunk being appended to, so that a flush sees every sample in a chunk. */
  void seal() {
    if (open != null) {
      lastChunkBytes = open.byteLength();
      chunks.add(
          new XorChunk(
              open.finish(), lastChunkBytes, open.count(), openMinTime, open.lastTimestamp()));
      open = null;
    }
  }

  /** Adds the start of every block window holding buffered samples to {@code windows}. */
  void addWindows(Set<Long> windows) {
    long last = Long.MIN_VALUE;
    for (XorChunk c : chunks) {
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
  List<XorChunk> windowChunks(long start) {
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

  /** Forgets the buffered samples once they are in blocks. */
  void clear() {
    chunks.clear();
    open = null;
  }

  /** Walks the samples of consecutive chunks. */
  private static final class ChunksIterator implements SampleIterator {
    private final XorIterator chunk = new XorIterator();
    private List<XorChunk> chunks = List.of();
    private int index;
    private boolean positioned;

    ChunksIterator reset(List<XorChunk> chunks) {
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
        XorChunk c = chunks.get(index);
        chunk.reset(c.data(), 0, c.length(), c.count());
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
