package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.InvalidLabelsException;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SeriesLimitException;
import io.flightdeck.storage.StorageException;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.tsdb.FailureLog;
import io.flightdeck.tsdb.TsdbMetrics;
import io.flightdeck.tsdb.TsdbOptions;
import io.flightdeck.tsdb.encoding.Encbuf;
import io.flightdeck.tsdb.wal.Wal;
import io.flightdeck.tsdb.wal.WalRecordCodec;
import io.flightdeck.tsdb.wal.WalVisitor;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import org.roaringbitmap.RoaringBitmap;
import org.slf4j.LoggerFactory;

/**
 * The in-memory part of the database: every active series with its recent samples, behind the WAL.
 * Thread-safe. Appenders log to the WAL before samples become visible; queriers see the commits
 * completed when they were created.
 */
public final class Head {
  private final TsdbOptions options;
  private final TsdbMetrics metrics;
  private final Wal wal;

  /** A full disk fails every commit: logged once per cause, then counted. */
  private final FailureLog walFailures =
      new FailureLog(
          "writing the write-ahead log",
          LoggerFactory.getLogger(Head.class)::warn,
          Duration.ofMinutes(1),
          System::currentTimeMillis,
          32);

  private final long blockRange;

  private final Map<Labels, HeadSeries> byLabels = new ConcurrentHashMap<>();
  private final SeriesById byId = new SeriesById();
  private final Map<String, AtomicInteger> seriesPerMetric = new ConcurrentHashMap<>();
  private final MemPostings postings = new MemPostings();
  private final Map<String, MetricMetadata> metadata = new ConcurrentHashMap<>();
  private final AtomicInteger nextId = new AtomicInteger(1);
  private final ReentrantLock creationLock = new ReentrantLock();

  final Isolation isolation = new Isolation();

  /** Serialises WAL writes with commit numbering, so numbers follow log order. */
  final ReentrantLock walLock = new ReentrantLock();

  private final AtomicLong minTime = new AtomicLong(Long.MAX_VALUE);
  private final AtomicLong maxTime = new AtomicLong(Long.MIN_VALUE);

  /** In-order data before this is in blocks; older samples are taken as backfill. */
  private volatile long minValidTime = Long.MIN_VALUE;

  public Head(TsdbOptions options, TsdbMetrics metrics, Wal wal) {
    this.options = options;
    this.metrics = metrics;
    this.wal = wal;
    this.blockRange = options.blockRange().toMillis();
  }

  // ---- series ---------------------------------------------------------------------------

  HeadSeries byId(long ref) {
    return ref <= 0 || ref > Integer.MAX_VALUE ? null : byId.get((int) ref);
  }

  /** The series for these labels, created (and counted against the limits) if new. */
  HeadSeries getOrCreate(Labels labels) {
    HeadSeries series = byLabels.get(labels);
    if (series != null) {
      return series;
    }
    validate(labels);
    creationLock.lock();
    try {
      series = byLabels.get(labels);
      if (series != null) {
        return series;
      }
      checkSeriesLimits(labels.metricName());
      return create(nextId.getAndIncrement(), labels);
    } finally {
      creationLock.unlock();
    }
  }

  private HeadSeries create(int id, Labels labels) {
    HeadSeries series = new HeadSeries(id, labels, blockRange);
    postings.add(id, labels);
    byId.put(id, series);
    byLabels.put(labels, series);
    seriesPerMetric.computeIfAbsent(series.metricName, m -> new AtomicInteger()).incrementAndGet();
    return series;
  }

  private void validate(Labels labels) {
    String metric = labels.metricName();
    if (metric.isEmpty()) {
      throw new InvalidLabelsException(
          StorageException.withContext("series has no metric name (__name__)", "series", labels));
    }
    if (options.maxLabelsPerSeries() > 0 && labels.size() > options.maxLabelsPerSeries()) {
      throw new InvalidLabelsException(
          StorageException.withContext(
              "series has too many labels",
              "metric",
              metric,
              "labels",
              labels.size(),
              "limit",
              options.maxLabelsPerSeries()));
    }
    for (int i = 0; i < labels.size(); i++) {
      if (labels.name(i).length() > options.maxLabelNameLength()) {
        throw new InvalidLabelsException(
            StorageException.withContext(
                "label name too long",
                "metric",
                metric,
                "label",
                abbreviate(labels.name(i)),
                "length",
                labels.name(i).length(),
                "limit",
                options.maxLabelNameLength()));
      }
      if (labels.value(i).length() > options.maxLabelValueLength()) {
        throw new InvalidLabelsException(
            StorageException.withContext(
                "label value too long",
                "metric",
                metric,
                "label",
                labels.name(i),
                "length",
                labels.value(i).length(),
                "limit",
                options.maxLabelValueLength()));
      }
    }
  }

  private void checkSeriesLimits(String metric) {
    if (options.maxSeries() > 0 && byId.size() >= options.maxSeries()) {
      throw new SeriesLimitException(
          StorageException.withContext(
              "too many active series: refusing a new series",
              "metric",
              metric,
              "limit",
              options.maxSeries()));
    }
    AtomicInteger perMetric = seriesPerMetric.get(metric);
    if (options.maxSeriesPerMetric() > 0
        && perMetric != null
        && perMetric.get() >= options.maxSeriesPerMetric()) {
      throw new SeriesLimitException(
          StorageException.withContext(
              "too many active series for one metric, is a label taking unbounded values"
                  + " (a timestamp or request id)?",
              "metric",
              metric,
              "limit",
              options.maxSeriesPerMetric()));
    }
  }

  private static String abbreviate(String s) {
    return s.length() <= 64 ? s : s.substring(0, 64) + "...";
  }

  // ---- writing --------------------------------------------------------------------------

  public Appender appender() {
    return new HeadAppender(this, options, metrics);
  }

  /** Writes one commit's records to the WAL and numbers the commit; see HeadAppender. */
  long logCommit(
      List<HeadSeries> touched,
      Encbuf samples,
      Encbuf scratch,
      List<String> metadataNames,
      List<MetricMetadata> metadataValues) {
    walLock.lock();
    try {
      List<HeadSeries> unlogged = null;
      for (HeadSeries series : touched) {
        if (!series.walLogged) {
          if (unlogged == null) {
            unlogged = new ArrayList<>();
          }
          unlogged.add(series);
        }
      }
      if (unlogged != null) {
        WalRecordCodec.begin(scratch);
        for (HeadSeries series : unlogged) {
          WalRecordCodec.addSeries(scratch, series.id, series.labels);
        }
        WalRecordCodec.finish(scratch, unlogged.size());
        wal.log(WalRecordCodec.SERIES, scratch);
        for (HeadSeries series : unlogged) {
          series.walLogged = true;
        }
      }
      if (!metadataNames.isEmpty()) {
        WalRecordCodec.begin(scratch);
        for (int i = 0; i < metadataNames.size(); i++) {
          WalRecordCodec.addMetadata(scratch, metadataNames.get(i), metadataValues.get(i));
        }
        WalRecordCodec.finish(scratch, metadataNames.size());
        wal.log(WalRecordCodec.METADATA, scratch);
      }
      long seq = isolation.begin();
      try {
        if (samples.length() > 4) {
          wal.log(WalRecordCodec.SAMPLES, samples);
        }
      } catch (RuntimeException e) {
        isolation.end(seq);
        throw e;
      }
      return seq;
    } catch (StorageUnavailableException e) {
      metrics.walWriteFailures.increment();
      walFailures.record(e);
      throw e;
    } finally {
      walLock.unlock();
    }
  }

  void putMetadata(String metric, MetricMetadata value) {
    metadata.put(metric, value);
  }

  void observeTime(long t) {
    minTime.accumulateAndGet(t, Math::min);
    maxTime.accumulateAndGet(t, Math::max);
  }

  /**
   * Data before this belongs in blocks: head windows already cut, and backfill. Long.MIN_VALUE
   * while nothing was cut yet.
   */
  public long minValidTime() {
    return minValidTime;
  }

  // ---- replay ---------------------------------------------------------------------------

  /** Rebuilds memory from the WAL; call once before any appender is used. */
  public Wal.ReplayStats replay() throws IOException {
    Map<Long, HeadSeries> refs = new java.util.HashMap<>();
    long[] unknown = new long[1];
    long[] inBlocks = new long[1];
    List<long[]> flushed = new ArrayList<>();
    long[] position = new long[2];
    Wal.ReplayStats stats =
        wal.replay(
            new WalVisitor() {
              @Override
              public void series(long ref, Labels labels) {
                HeadSeries existing = byLabels.get(labels);
                if (existing == null) {
                  if (ref > 0 && ref < Integer.MAX_VALUE && !byId.containsKey((int) ref)) {
                    existing = create((int) ref, labels);
                    nextId.accumulateAndGet((int) ref + 1, Math::max);
                  } else {
                    existing = create(nextId.getAndIncrement(), labels);
                  }
                }
                existing.walLogged = existing.id == ref;
                refs.put(ref, existing);
              }

              @Override
              public void blockFlushed(long mint, long maxt, int segment, long offset) {
                flushed.add(new long[] {mint, maxt, segment, offset});
              }

              @Override
              public void position(int segment, long offset) {
                position[0] = segment;
                position[1] = offset;
              }

              @Override
              public void sample(long ref, long timestamp, double value) {
                if (inFlushedBlock(flushed, timestamp, position)) {
                  inBlocks[0]++;
                  return;
                }
                HeadSeries series = refs.get(ref);
                if (series == null) {
                  unknown[0]++;
                  return;
                }
                if (series.replay(timestamp, value) != HeadSeries.Applied.DUPLICATE_SAME_VALUE) {
                  observeTime(timestamp);
                }
              }

              @Override
              public void metadata(String metricName, MetricMetadata value) {
                metadata.put(metricName, value);
              }

              @Override
              public void tombstone(long ref, long mint, long maxt) {
                HeadSeries series = refs.get(ref);
                if (series != null) {
                  series.delete(mint, maxt);
                }
              }
            });
    if (inBlocks[0] > 0) {
      org.slf4j.LoggerFactory.getLogger(Head.class)
          .info("WAL replay skipped {} samples already written to blocks", inBlocks[0]);
    }
    if (unknown[0] > 0) {
      org.slf4j.LoggerFactory.getLogger(Head.class)
          .warn("WAL replay skipped {} samples of series whose record was lost", unknown[0]);
    }
    recomputeTimes();
    return stats;
  }

  /** Whether a sample logged at {@code position} lies in a block that a marker says is written. */
  private static boolean inFlushedBlock(List<long[]> flushed, long t, long[] position) {
    for (long[] m : flushed) {
      boolean loggedBefore = position[0] < m[2] || (position[0] == m[2] && position[1] < m[3]);
      if (loggedBefore && t >= m[0] && t <= m[1]) {
        return true;
      }
    }
    return false;
  }

  // ---- reading --------------------------------------------------------------------------

  public Querier querier(long mint, long maxt) {
    return new HeadQuerier(this, mint, maxt, isolation.openReader());
  }

  /**
   * What a block writer reads from the head: exactly the commits logged before a WAL position, and
   * that position, to be logged with {@link #logBlockFlushed} once the block is on disk.
   */
  public record FlushView(Querier querier, long seq, int segment, long offset) {}

  public FlushView flushView(long mint, long maxt) throws InterruptedException {
    long[] position;
    long seq;
    walLock.lock();
    try {
      position = wal.position();
      seq = isolation.lastAssigned();
      isolation.openReaderAt(seq);
    } finally {
      walLock.unlock();
    }
    isolation.awaitCompleted(seq);
    return new FlushView(
        new HeadQuerier(this, mint, maxt, seq), seq, (int) position[0], position[1]);
  }

  /**
   * Logs that every sample within [mint, maxt] logged before the flush view's position is in a
   * block, so that a replay after a crash does not bring those samples back into the head.
   */
  public void logBlockFlushed(long mint, long maxt, FlushView view) {
    Encbuf buf = new Encbuf(48);
    WalRecordCodec.begin(buf);
    WalRecordCodec.addBlockFlushed(buf, mint, maxt, view.segment(), view.offset());
    WalRecordCodec.finish(buf, 1);
    walLock.lock();
    try {
      wal.log(WalRecordCodec.BLOCK_FLUSHED, buf);
    } finally {
      walLock.unlock();
    }
  }

  /** Series matching all matchers, sorted by labels when asked. */
  List<HeadSeries> select(boolean sorted, Matcher... matchers) {
    RoaringBitmap ids = postings.select(matchers);
    List<HeadSeries> result = new ArrayList<>(ids.getCardinality());
    ids.forEach(
        (int id) -> {
          HeadSeries series = byId.get(id);
          if (series != null) {
            result.add(series);
          }
        });
    if (sorted) {
      result.sort(Comparator.comparing(s -> s.labels));
    }
    return result;
  }

  RoaringBitmap selectIds(Matcher... matchers) {
    return postings.select(matchers);
  }

  List<String> labelNames(RoaringBitmap ids) {
    return postings.labelNames(ids);
  }

  List<String> labelValues(String name, RoaringBitmap ids) {
    return postings.labelValues(name, ids);
  }

  public Map<String, MetricMetadata> metadata() {
    return Map.copyOf(metadata);
  }

  public int numSeries() {
    return byId.size();
  }

  /** In-order chunks in memory, the open ones included, as Prometheus counts its head chunks. */
  public long numChunks() {
    long chunks = 0;
    for (HeadSeries series : byId.values()) {
      chunks += series.chunkCount();
    }
    return chunks;
  }

  /** Earliest sample in memory, Long.MAX_VALUE when empty. */
  public long minTime() {
    return minTime.get();
  }

  /** Newest sample in memory, Long.MIN_VALUE when empty. */
  public long maxTime() {
    return maxTime.get();
  }

  /** Earliest sample behind the head (backfill) waiting to be written to a block. */
  public long backfillMinTime() {
    long min = Long.MAX_VALUE;
    long before = minValidTime;
    for (HeadSeries series : byId.values()) {
      long t = series.outOfOrderMinTime();
      if (t < before) {
        min = Math.min(min, t);
      }
    }
    return min;
  }

  // ---- maintenance ----------------------------------------------------------------------

  /** Marks data before {@code t} as belonging to blocks; later older samples are backfill. */
  public void setMinValidTime(long t) {
    if (t > minValidTime) {
      minValidTime = t;
    }
  }

  /**
   * Drops data before {@code before} that was written to a block at commit number {@code seq}, then
   * forgets series that became empty.
   */
  public void truncate(long before, long seq) {
    List<HeadSeries> empty = new ArrayList<>();
    for (HeadSeries series : byId.values()) {
      if (series.truncateBefore(before, seq)) {
        empty.add(series);
      }
    }
    for (HeadSeries series : empty) {
      if (series.markRemovedIfIdle()) {
        remove(series);
      }
    }
    recomputeTimes();
  }

  private void remove(HeadSeries series) {
    creationLock.lock();
    try {
      byLabels.remove(series.labels, series);
      byId.remove(series.id, series);
      postings.remove(series.id, series.labels);
      AtomicInteger count = seriesPerMetric.get(series.metricName);
      if (count != null) {
        count.decrementAndGet();
      }
    } finally {
      creationLock.unlock();
    }
  }

  private void recomputeTimes() {
    long min = Long.MAX_VALUE;
    long max = Long.MIN_VALUE;
    for (HeadSeries series : byId.values()) {
      min = Math.min(min, series.minTime());
      max = Math.max(max, series.maxTime());
    }
    minTime.set(min);
    maxTime.accumulateAndGet(max, Math::max);
  }

  /** Deletes samples of the matching series within [mint, maxt]; logged so it survives restarts. */
  public int delete(long mint, long maxt, Matcher... matchers) {
    List<HeadSeries> matching = select(false, matchers);
    if (matching.isEmpty()) {
      return 0;
    }
    Encbuf buf = new Encbuf(64 + 24 * matching.size());
    walLock.lock();
    try {
      WalRecordCodec.begin(buf);
      int entries = 0;
      for (HeadSeries series : matching) {
        if (series.walLogged) { // an unlogged series has no samples yet: nothing to delete
          WalRecordCodec.addTombstone(buf, series.id, mint, maxt);
          entries++;
        }
      }
      WalRecordCodec.finish(buf, entries);
      wal.log(WalRecordCodec.TOMBSTONES, buf);
      for (HeadSeries series : matching) {
        series.delete(mint, maxt);
      }
    } finally {
      walLock.unlock();
    }
    return matching.size();
  }

  /**
   * Replaces WAL segments with a checkpoint of what the head holds now. Called after data moved to
   * blocks, so replay time stays bounded by the head's size.
   */
  public void checkpoint() throws IOException, InterruptedException {
    int upTo;
    long seq;
    walLock.lock();
    try {
      upTo = wal.cut();
      seq = isolation.lastAssigned();
    } finally {
      walLock.unlock();
    }
    isolation.awaitCompleted(seq);
    List<HeadSeries> all = byId.values();
    wal.checkpoint(upTo, sink -> HeadCheckpoint.write(all, metadata, sink));
  }
}
