package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.XorEncoder;
import io.flightdeck.tsdb.chunk.XorIterator;
import java.util.ArrayList;
import java.util.List;

/**
 * One series of a {@link BlockImport}: the samples buffered since the last flush, XOR-compressed in
 * chunks that never cross a block window, so a flush hands each window exactly its chunks. The
 * newest timestamp and value outlive a flush: samples must keep increasing across flushes. Not
 * thread-safe.
 */
final class ImportedSeries {
  /** Samples per buffered chunk, as in the head and in blocks. */
  static final int SAMPLES_PER_CHUNK = 120;

  /**
   * Rough heap cost of a series and of a chunk beyond their encoded bytes, for the memory bound.
   */
  static final int SERIES_OVERHEAD_BYTES = 256;

  static final int CHUNK_OVERHEAD_BYTES = 48;

  final Labels labels;
  final int ref;
  private final long window;
  private final List<Chunk> chunks = new ArrayList<>();
  private XorEncoder open;
  private long openMinTime;
  private long openWindowEnd;
  private long maxTime = Long.MIN_VALUE;
  private double lastValue;

  /** Index of the first chunk a flush has not handed out yet. */
  private int flushCursor;

  /** Whether the series is in this flush's list of series with samples. */
  boolean listed;

  /**
   * Newest timestamp and its value in the unfinished appender batch; Long.MIN_VALUE when the batch
   * has none. Only one appender is open at a time (see {@link BlockImport}).
   */
  long pendingMaxTime = Long.MIN_VALUE;

  double pendingLastValue;

  private record Chunk(byte[] data, int count, long minTime, long maxTime) {}

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

  boolean hasSamples() {
    return open != null || !chunks.isEmpty();
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
      open = new XorEncoder(64);
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
      chunks.add(new Chunk(open.finish(), open.count(), openMinTime, open.lastTimestamp()));
      open = null;
    }
  }

  /**
   * Start of the earliest block window whose samples were not handed out yet; Long.MAX_VALUE when
   * none. Call after {@link #seal()}.
   */
  long nextWindow() {
    return flushCursor < chunks.size()
        ? Math.floorDiv(chunks.get(flushCursor).minTime(), window) * window
        : Long.MAX_VALUE;
  }

  /**
   * The buffered samples of the window starting at {@code start}, the next window not handed out
   * yet; {@code reuse} is an iterator from an earlier call or null.
   */
  SampleIterator takeWindow(long start, SampleIterator reuse) {
    int from = flushCursor;
    while (flushCursor < chunks.size() && chunks.get(flushCursor).minTime() < start + window) {
      flushCursor++;
    }
    ChunksIterator it = reuse instanceof ChunksIterator c ? c : new ChunksIterator();
    return it.reset(chunks.subList(from, flushCursor));
  }

  /** Forgets the buffered samples once they are in blocks. */
  void clear() {
    chunks.clear();
    open = null;
    flushCursor = 0;
  }

  /** Walks the samples of consecutive chunks. */
  private static final class ChunksIterator implements SampleIterator {
    private final XorIterator chunk = new XorIterator();
    private List<Chunk> chunks = List.of();
    private int index;
    private boolean positioned;

    ChunksIterator reset(List<Chunk> chunks) {
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
        Chunk c = chunks.get(index);
        chunk.reset(c.data(), 0, c.data().length, c.count());
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
