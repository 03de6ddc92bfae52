package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.tsdb.chunk.ChunkDecoder;
import io.flightdeck.tsdb.chunk.ChunkEncoding;
import io.flightdeck.tsdb.chunk.XorEncoder;
import java.util.ArrayList;
import java.util.List;

/**
 * One series in memory: completed XOR chunks, the open chunk being appended to, out-of-order and
 * backfill samples, and deleted ranges. All mutable state is guarded by {@code this}.
 */
final class HeadSeries {
  /** Samples per chunk before a new one is started, as in Prometheus. */
  static final int SAMPLES_PER_CHUNK = 120;

  final int id;
  final Labels labels;
  final String metricName;

  /** Whether the series record is in the WAL; written once, before the first sample. */
  volatile boolean walLogged;

  private final long blockRange;
  private final List<HeadChunk> chunks = new ArrayList<>();
  private XorEncoder open;
  private long openMinTime;
  private long openBoundary;
  private long openMaxSeq;

  /** Bytes of the last completed chunk: the next one will likely be as large. */
  private int lastChunkBytes = 32;

  private long maxTime = Long.MIN_VALUE;
  private double lastValue;
  private int inOrderCount;
  private final RecentCommits recent = new RecentCommits();
  private OutOfOrderSamples outOfOrder;
  private List<long[]> deleted;
  private int pendingAppends;
  private boolean removed;

  HeadSeries(int id, Labels labels, long blockRange) {
    this.id = id;
    this.labels = labels;
    this.metricName = labels.metricName();
    this.blockRange = blockRange;
  }

  // ---- appender bookkeeping -------------------------------------------------------------

  /** Marks an appender's interest; false if the series was garbage-collected meanwhile. */
  synchronized boolean acquireForAppend() {
    if (removed) {
      return false;
    }
    pendingAppends++;
    return true;
  }

  synchronized void releaseAppend() {
    pendingAppends--;
  }

  synchronized long maxTime() {
    return maxTime;
  }

  // ---- writes --------------------------------------------------------------------------

  /** Outcome of applying one sample. */
  enum Applied {
    IN_ORDER,
    OUT_OF_ORDER,
    DUPLICATE_SAME_VALUE,
    DUPLICATE_OTHER_VALUE,
    TOO_OLD_FOR_WINDOW
  }

  /**
   * Applies a sample.
   *
   * @param oooWindow samples this far behind the newest one (ms) are kept as out-of-order samples
   * @param backfillBefore samples older than this (behind the head) are always kept as backfill
   */
  synchronized Applied apply(
      long t, double v, long seq, long lowWatermark, long oooWindow, long backfillBefore) {
    if (t > maxTime) {
      appendInOrder(t, v, seq, lowWatermark);
      return Applied.IN_ORDER;
    }
    if (t == maxTime) {
      return sameBits(v, lastValue) ? Applied.DUPLICATE_SAME_VALUE : Applied.DUPLICATE_OTHER_VALUE;
    }
    if (t < maxTime - oooWindow && t >= backfillBefore) {
      return Applied.TOO_OLD_FOR_WINDOW;
    }
    return insertOutOfOrder(t, v, seq);
  }

  /** Replay: re-applies a logged sample; one already present is skipped. */
  synchronized Applied replay(long t, double v) {
    if (t > maxTime) {
      appendInOrder(t, v, 0, 0);
      return Applied.IN_ORDER;
    }
    return insertOutOfOrder(t, v, 0);
  }

  /** Dry-run check used by the appender before a sample is logged. */
  synchronized Applied check(long t, double v, long oooWindow, long backfillBefore) {
    if (t > maxTime) {
      return Applied.IN_ORDER;
    }
    if (t == maxTime) {
      return sameBits(v, lastValue) ? Applied.DUPLICATE_SAME_VALUE : Applied.DUPLICATE_OTHER_VALUE;
    }
    if (t < maxTime - oooWindow && t >= backfillBefore) {
      return Applied.TOO_OLD_FOR_WINDOW;
    }
    Double existing = existingValue(t);
    if (existing != null) {
      return sameBits(v, existing) ? Applied.DUPLICATE_SAME_VALUE : Applied.DUPLICATE_OTHER_VALUE;
    }
    return Applied.OUT_OF_ORDER;
  }

  private Applied insertOutOfOrder(long t, double v, long seq) {
    Double existing = existingValue(t);
    if (existing != null) {
      return sameBits(v, existing) ? Applied.DUPLICATE_SAME_VALUE : Applied.DUPLICATE_OTHER_VALUE;
    }
    if (outOfOrder == null) {
      outOfOrder = new OutOfOrderSamples();
    }
    outOfOrder.insert(t, v, seq);
    return Applied.OUT_OF_ORDER;
  }

  private Double existingValue(long t) {
    if (outOfOrder != null) {
      int at = outOfOrder.find(t);
      if (at >= 0) {
        return outOfOrder.value(at);
      }
    }
    if (inOrderCount == 0 || t < firstInOrderTime()) {
      return null;
    }
    ChunkDecoder decoder = new ChunkDecoder();
    for (HeadChunk chunk : chunks) {
      if (t >= chunk.minTime() && t <= chunk.maxTime()) {
        return valueAt(
            decoder.decode(chunk.encoding(), chunk.data(), chunk.encodedCount(), chunk.count()), t);
      }
    }
    if (open != null && t >= openMinTime) {
      byte[] bytes = open.toBytes();
      return valueAt(decoder.decode(ChunkEncoding.XOR, bytes, open.count(), open.count()), t);
    }
    return null;
  }

  private static Double valueAt(SampleIterator it, long t) {
    return it.seek(t) && it.timestamp() == t ? it.value() : null;
  }

  private long firstInOrderTime() {
    return chunks.isEmpty() ? openMinTime : chunks.get(0).minTime();
  }

  private void appendInOrder(long t, double v, long seq, long lowWatermark) {
    if (open != null && (open.count() >= SAMPLES_PER_CHUNK || t >= openBoundary)) {
      closeOpenChunk();
    }
    if (open == null) {
      open = new XorEncoder(lastChunkBytes + lastChunkBytes / 16 + 4);
      openMinTime = t;
      openBoundary = Math.floorDiv(t, blockRange) * blockRange + blockRange;
      openMaxSeq = 0;
    }
    openMaxSeq = Math.max(openMaxSeq, seq);
    open.append(t, v);
    maxTime = t;
    lastValue = v;
    inOrderCount++;
    recent.add(seq, lowWatermark);
  }

  private void closeOpenChunk() {
    lastChunkBytes = open.byteLength();
    int count = open.count();
    chunks.add(
        new HeadChunk(
            open.finish(),
            ChunkEncoding.XOR,
            count,
            count,
            openMinTime,
            open.lastTimestamp(),
            openMaxSeq));
    open = null;
  }

  synchronized void delete(long mint, long maxt) {
    if (outOfOrder != null) {
      outOfOrder.removeRange(mint, maxt);
    }
    if (inOrderCount > 0 && maxt >= firstInOrderTime() && mint <= maxTime) {
      if (deleted == null) {
        deleted = new ArrayList<>();
      }
      deleted.add(new long[] {mint, maxt});
    }
  }

  /**
   * Drops data before {@code before} that is now in a block: whole chunks, and out-of-order samples
   * committed at or below {@code maxSeq}.
   *
   * @return whether the series holds no data any more
   */
  synchronized boolean truncateBefore(long before, long maxSeq) {
    while (!chunks.isEmpty()
        && chunks.get(0).maxTime() < before
        && chunks.get(0).maxSeq() <= maxSeq) {
      inOrderCount -= chunks.remove(0).count();
    }
    if (chunks.isEmpty() && open != null && open.lastTimestamp() < before && openMaxSeq <= maxSeq) {
      inOrderCount -= open.count();
      open = null;
    }
    if (outOfOrder != null) {
      outOfOrder.removeBefore(before, maxSeq);
      if (outOfOrder.size() == 0) {
        outOfOrder = null;
      }
    }
    if (deleted != null) {
      deleted.removeIf(range -> range[1] < before);
      if (deleted.isEmpty()) {
        deleted = null;
      }
    }
    return isEmpty();
  }

  private boolean isEmpty() {
    return inOrderCount == 0 && outOfOrder == null;
  }

  /** Marks the series removed if it holds nothing and no appender uses it. */
  synchronized boolean markRemovedIfIdle() {
    if (isEmpty() && pendingAppends == 0) {
      removed = true;
    }
    return removed;
  }

  // ---- reads ---------------------------------------------------------------------------

  /** Completed chunks plus the open one. */
  synchronized int chunkCount() {
    return chunks.size() + (open == null ? 0 : 1);
  }

  /** Earliest sample held, in-order or not; Long.MAX_VALUE when empty. */
  synchronized long minTime() {
    long min = inOrderCount > 0 ? firstInOrderTime() : Long.MAX_VALUE;
    return outOfOrder == null ? min : Math.min(min, outOfOrder.minTime());
  }

  /** Earliest out-of-order or backfill sample; Long.MAX_VALUE when none. */
  synchronized long outOfOrderMinTime() {
    return outOfOrder == null ? Long.MAX_VALUE : outOfOrder.minTime();
  }

  /**
   * A private copy of the samples visible at commit number {@code seq} that may fall within [mint,
   * maxt], for a reader that runs without the lock; null when there are none.
   */
  synchronized SeriesView view(long mint, long maxt, long seq) {
    int hidden = Math.min(recent.hiddenFor(seq), inOrderCount);
    // Newest first: the samples this snapshot must not see are the newest in-order ones.
    List<HeadChunk> newestFirst = new ArrayList<>(4);
    if (open != null) {
      int drop = Math.min(hidden, open.count());
      hidden -= drop;
      if (drop < open.count() && open.lastTimestamp() >= mint && openMinTime <= maxt) {
        // Queries run far more often than a series gets samples: read the writer's buffer in
        // place rather than copy it (readers stop after the count fixed here).
        newestFirst.add(
            new HeadChunk(
                open.liveBytes(),
                ChunkEncoding.XOR,
                open.count(),
                open.count() - drop,
                openMinTime,
                open.lastTimestamp(),
                openMaxSeq));
      }
    }
    for (int i = chunks.size() - 1; i >= 0; i--) {
      HeadChunk chunk = chunks.get(i);
      int drop = Math.min(hidden, chunk.count());
      hidden -= drop;
      if (drop < chunk.count() && chunk.maxTime() >= mint && chunk.minTime() <= maxt) {
        newestFirst.add(drop == 0 ? chunk : chunk.withCount(chunk.count() - drop));
      }
    }
    List<HeadChunk> all = newestFirst.reversed();
    long[] oooTimes = new long[0];
    double[] oooValues = new double[0];
    if (outOfOrder != null) {
      int n = 0;
      oooTimes = new long[outOfOrder.size()];
      oooValues = new double[outOfOrder.size()];
      for (int i = 0; i < outOfOrder.size(); i++) {
        long t = outOfOrder.time(i);
        if (t >= mint && t <= maxt && outOfOrder.seq(i) <= seq) {
          oooTimes[n] = t;
          oooValues[n] = outOfOrder.value(i);
          n++;
        }
      }
      oooTimes = java.util.Arrays.copyOf(oooTimes, n);
      oooValues = java.util.Arrays.copyOf(oooValues, n);
    }
    if (all.isEmpty() && oooTimes.length == 0) {
      return null;
    }
    List<long[]> deletedCopy = deleted == null ? List.of() : List.copyOf(deleted);
    return new SeriesView(labels, all, oooTimes, oooValues, deletedCopy);
  }

  private static boolean sameBits(double a, double b) {
    return Double.doubleToRawLongBits(a) == Double.doubleToRawLongBits(b);
  }
}
