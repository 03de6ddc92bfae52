package io.flightdeck.tsdb.head;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.DuplicateSampleException;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.SampleRejectedException;
import io.flightdeck.storage.SampleTooFarInFutureException;
import io.flightdeck.storage.SampleTooOldException;
import io.flightdeck.storage.StorageException;
import io.flightdeck.tsdb.SampleColumns;
import io.flightdeck.tsdb.TsdbMetrics;
import io.flightdeck.tsdb.TsdbOptions;
import io.flightdeck.tsdb.encoding.Encbuf;
import io.flightdeck.tsdb.wal.WalRecordCodec;
import java.util.ArrayList;
import java.util.List;

/**
 * Buffers one batch, checks each sample against its series as it arrives, and on commit logs the
 * batch to the WAL before applying it to memory. One thread at a time (see {@link Appender}).
 */
final class HeadAppender implements Appender {
  private final Head head;
  private final TsdbOptions options;
  private final TsdbMetrics metrics;
  private final long oooWindow;
  private final long futureToleranceMs;
  private final long retentionMs;

  private final SampleColumns<HeadSeries> samples = new SampleColumns<>(64);

  /**
   * Series this appender keeps from garbage collection until commit or rollback, each with the
   * newest timestamp and value it has in this batch.
   */
  private final HeldSeries held = new HeldSeries();

  private final List<String> metadataNames = new ArrayList<>();
  private final List<MetricMetadata> metadataValues = new ArrayList<>();
  private boolean finished;

  /**
   * The clock as of this batch's start, read again only to refuse a sample from the future: a read
   * per sample took a fifth of a server's CPU while it caught up with a 1 GB TensorBoard logdir (29
   * ns each on this VM). The retention bound is that of the batch's start, as Prometheus's head
   * fixes its lowest valid time when an appender is created.
   */
  private long now;

  private long latestAccepted;

  HeadAppender(Head head, TsdbOptions options, TsdbMetrics metrics) {
    this.head = head;
    this.options = options;
    this.metrics = metrics;
    this.oooWindow = options.outOfOrderWindow().toMillis();
    this.futureToleranceMs = options.futureTolerance().toMillis();
    this.retentionMs = options.retention().toMillis();
    readClock();
  }

  private void readClock() {
    now = options.clock().millis();
    latestAccepted = now + futureToleranceMs;
  }

  @Override
  public long append(long ref, Labels labels, long t, double v) {
    ensureOpen();
    try {
      return doAppend(ref, labels, t, v);
    } catch (SampleRejectedException e) {
      metrics.reject(e.reason());
      throw e;
    }
  }

  private long doAppend(long ref, Labels labels, long t, double v) {
    if (t > latestAccepted) {
      readClock();
    }
    if (t > latestAccepted) {
      throw new SampleTooFarInFutureException(
          StorageException.withContext(
              "sample timestamp is too far in the future",
              "series",
              labels,
              "timestamp",
              t,
              "now",
              now));
    }
    if (retentionMs > 0 && t < Math.max(head.maxTime(), now) - retentionMs) {
      throw new SampleTooOldException(
          StorageException.withContext(
              "sample is older than the retention period",
              "series",
              labels,
              "timestamp",
              t,
              "retention",
              options.retention()));
    }
    int slot = hold(ref, labels);
    HeadSeries s = held.series(slot);
    boolean inBatch = held.hasSample(slot);
    long lastTime = held.lastTime(slot);
    if (inBatch && t <= lastTime) {
      if (t == lastTime) {
        if (Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(held.lastValue(slot))) {
          return s.id;
        }
        throw duplicate(s, t);
      }
      if (t >= head.minValidTime() && t < lastTime - oooWindow) {
        throw outOfOrder(s, t, lastTime);
      }
    } else {
      switch (s.check(t, v, oooWindow, head.minValidTime())) {
        case DUPLICATE_SAME_VALUE -> {
          return s.id;
        }
        case DUPLICATE_OTHER_VALUE -> throw duplicate(s, t);
        case TOO_OLD_FOR_WINDOW -> throw outOfOrder(s, t, s.maxTime());
        default -> {
          // in order, or accepted behind the newest sample
        }
      }
    }
    if (!inBatch || t > lastTime) {
      held.setLast(slot, t, v);
    }
    samples.add(s, t, v);
    return s.id;
  }

  /**
   * The held slot of the series for ref or labels, held against garbage collection until commit or
   * rollback.
   */
  private int hold(long ref, Labels labels) {
    HeadSeries s = ref != 0 ? head.byId(ref) : null;
    if (s != null && (s.labels == labels || s.labels.equals(labels))) {
      int slot = tryHold(s);
      if (slot >= 0) {
        return slot;
      }
    }
    while (true) {
      int slot = tryHold(head.getOrCreate(labels));
      if (slot >= 0) {
        return slot;
      }
      Thread.onSpinWait(); // the series is being garbage-collected; a new one will replace it
    }
  }

  /** The series' slot, held now if it was not; -1 if it was garbage-collected meanwhile. */
  private int tryHold(HeadSeries s) {
    int slot = held.find(s);
    if (slot >= 0) {
      return slot;
    }
    return s.acquireForAppend() ? held.add(s) : -1;
  }

  private static DuplicateSampleException duplicate(HeadSeries s, long t) {
    return new DuplicateSampleException(
        StorageException.withContext(
            "duplicate sample for timestamp with a different value",
            "series",
            s.labels,
            "timestamp",
            t));
  }

  private static OutOfOrderSampleException outOfOrder(HeadSeries s, long t, long newest) {
    return new OutOfOrderSampleException(
        StorageException.withContext(
            "out of order sample", "series", s.labels, "timestamp", t, "newest", newest));
  }

  @Override
  public void updateMetadata(String metricName, MetricMetadata metadata) {
    ensureOpen();
    metadataNames.add(metricName);
    metadataValues.add(metadata);
  }

  @Override
  public void commit() {
    ensureOpen();
    finished = true;
    try {
      int size = samples.size();
      if (size == 0 && metadataNames.isEmpty()) {
        return;
      }
      Encbuf record = new Encbuf(16 + 20 * size);
      WalRecordCodec.begin(record);
      for (int i = 0; i < size; i++) {
        WalRecordCodec.addSample(record, samples.series(i).id, samples.time(i), samples.value(i));
      }
      WalRecordCodec.finish(record, size);
      List<HeadSeries> touched = new ArrayList<>(held.size());
      for (int slot = 0; slot < held.size(); slot++) {
        if (held.hasSample(slot)) {
          touched.add(held.series(slot));
        }
      }
      long seq = head.logCommit(touched, record, new Encbuf(256), metadataNames, metadataValues);
      try {
        apply(seq);
      } finally {
        head.isolation.end(seq);
      }
      metrics.commits.increment();
    } finally {
      release();
    }
  }

  private void apply(long seq) {
    long backfillBefore = head.minValidTime();
    long lowWatermark = head.isolation.lowWatermark();
    long appended = 0;
    long outOfOrder = 0;
    long minTime = Long.MAX_VALUE;
    long maxTime = Long.MIN_VALUE;
    for (int i = 0; i < samples.size(); i++) {
      long t = samples.time(i);
      switch (samples
          .series(i)
          .apply(t, samples.value(i), seq, lowWatermark, oooWindow, backfillBefore)) {
        case IN_ORDER -> {
          appended++;
          minTime = Math.min(minTime, t);
          maxTime = Math.max(maxTime, t);
        }
        case OUT_OF_ORDER -> {
          appended++;
          outOfOrder++;
          minTime = Math.min(minTime, t);
          maxTime = Math.max(maxTime, t);
        }
        case DUPLICATE_SAME_VALUE -> {
          // already stored, nothing to do
        }
        case DUPLICATE_OTHER_VALUE -> metrics.reject("duplicate_timestamp");
        case TOO_OLD_FOR_WINDOW -> metrics.reject("out_of_order");
      }
    }
    if (appended > 0) {
      // Once per batch: the head's bounds are shared, and each update is a compare-and-set.
      head.observeTime(minTime);
      head.observeTime(maxTime);
    }
    metrics.samplesAppended.add(appended);
    metrics.outOfOrderSamplesAppended.add(outOfOrder);
    for (int i = 0; i < metadataNames.size(); i++) {
      head.putMetadata(metadataNames.get(i), metadataValues.get(i));
    }
  }

  @Override
  public void rollback() {
    ensureOpen();
    finished = true;
    release();
  }

  private void release() {
    for (int slot = 0; slot < held.size(); slot++) {
      held.series(slot).releaseAppend();
    }
    held.clear();
    samples.clear();
  }

  private void ensureOpen() {
    if (finished) {
      throw new IllegalStateException("appender already committed or rolled back");
    }
  }
}
