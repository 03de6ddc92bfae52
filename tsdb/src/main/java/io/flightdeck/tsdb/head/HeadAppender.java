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
import io.flightdeck.tsdb.TsdbMetrics;
import io.flightdeck.tsdb.TsdbOptions;
import io.flightdeck.tsdb.encoding.Encbuf;
import io.flightdeck.tsdb.wal.WalRecordCodec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

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

  private HeadSeries[] series = new HeadSeries[64];
  private long[] times = new long[64];
  private double[] values = new double[64];
  private int size;

  /**
   * Series this appender keeps from garbage collection until commit or rollback, each with the
   * newest timestamp and value it has in this batch ({@link #NO_SAMPLE} before the first).
   */
  private final Map<HeadSeries, double[]> held = new IdentityHashMap<>();

  private static final double[] NO_SAMPLE = new double[0];

  private final List<String> metadataNames = new ArrayList<>();
  private final List<MetricMetadata> metadataValues = new ArrayList<>();
  private boolean finished;

  HeadAppender(Head head, TsdbOptions options, TsdbMetrics metrics) {
    this.head = head;
    this.options = options;
    this.metrics = metrics;
    this.oooWindow = options.outOfOrderWindow().toMillis();
    this.futureToleranceMs = options.futureTolerance().toMillis();
    this.retentionMs = options.retention().toMillis();
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
    long now = options.clock().millis();
    if (t > now + futureToleranceMs) {
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
    HeadSeries s = hold(ref, labels);
    double[] last = held.get(s);
    if (last != NO_SAMPLE && t <= (long) last[0]) {
      if (t == (long) last[0]) {
        if (Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(last[1])) {
          return s.id;
        }
        throw duplicate(s, t);
      }
      if (t >= head.minValidTime() && t < (long) last[0] - oooWindow) {
        throw outOfOrder(s, t, (long) last[0]);
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
    if (last == NO_SAMPLE) {
      held.put(s, new double[] {t, Double.longBitsToDouble(Double.doubleToRawLongBits(v))});
    } else if (t > (long) last[0]) {
      last[0] = t;
      last[1] = v;
    }
    add(s, t, v);
    return s.id;
  }

  /** The series for ref or labels, held against garbage collection until commit or rollback. */
  private HeadSeries hold(long ref, Labels labels) {
    HeadSeries s = ref != 0 ? head.byId(ref) : null;
    if (s != null && (s.labels == labels || s.labels.equals(labels)) && tryHold(s)) {
      return s;
    }
    while (true) {
      s = head.getOrCreate(labels);
      if (tryHold(s)) {
        return s;
      }
      Thread.onSpinWait(); // the series is being garbage-collected; a new one will replace it
    }
  }

  private boolean tryHold(HeadSeries s) {
    if (held.containsKey(s)) {
      return true;
    }
    if (s.acquireForAppend()) {
      held.put(s, NO_SAMPLE);
      return true;
    }
    return false;
  }

  private void add(HeadSeries s, long t, double v) {
    if (size == times.length) {
      int capacity = size * 2;
      series = Arrays.copyOf(series, capacity);
      times = Arrays.copyOf(times, capacity);
      values = Arrays.copyOf(values, capacity);
    }
    series[size] = s;
    times[size] = t;
    values[size] = v;
    size++;
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
      if (size == 0 && metadataNames.isEmpty()) {
        return;
      }
      Encbuf samples = new Encbuf(16 + 20 * size);
      WalRecordCodec.begin(samples);
      for (int i = 0; i < size; i++) {
        WalRecordCodec.addSample(samples, series[i].id, times[i], values[i]);
      }
      WalRecordCodec.finish(samples, size);
      List<HeadSeries> touched = new ArrayList<>(held.size());
      held.forEach(
          (s, last) -> {
            if (last != NO_SAMPLE) {
              touched.add(s);
            }
          });
      long seq = head.logCommit(touched, samples, new Encbuf(256), metadataNames, metadataValues);
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
    for (int i = 0; i < size; i++) {
      switch (series[i].apply(times[i], values[i], seq, lowWatermark, oooWindow, backfillBefore)) {
        case IN_ORDER -> {
          appended++;
          minTime = Math.min(minTime, times[i]);
          maxTime = Math.max(maxTime, times[i]);
        }
        case OUT_OF_ORDER -> {
          appended++;
          outOfOrder++;
          minTime = Math.min(minTime, times[i]);
          maxTime = Math.max(maxTime, times[i]);
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
    for (HeadSeries s : held.keySet()) {
      s.releaseAppend();
    }
    held.clear();
    Arrays.fill(series, 0, size, null);
    size = 0;
  }

  private void ensureOpen() {
    if (finished) {
      throw new IllegalStateException("appender already committed or rolled back");
    }
  }
}
