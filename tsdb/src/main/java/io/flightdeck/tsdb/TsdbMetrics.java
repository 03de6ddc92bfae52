package io.flightdeck.tsdb;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Counters the database keeps about itself; the app exposes them at /metrics. Plain adders keep the
 * database free of a metrics library; all fields are thread-safe.
 */
public final class TsdbMetrics {
  public final LongAdder samplesAppended = new LongAdder();
  public final LongAdder outOfOrderSamplesAppended = new LongAdder();
  public final LongAdder commits = new LongAdder();
  public final LongAdder compactions = new LongAdder();
  public final LongAdder compactionFailures = new LongAdder();
  public final LongAdder walFsyncs = new LongAdder();
  public final LongAdder walFsyncNanos = new LongAdder();
  public final LongAdder walCorruptions = new LongAdder();

  /** Commits refused because the WAL could not be written (disk full, I/O error, closed). */
  public final LongAdder walWriteFailures = new LongAdder();

  public final LongAdder blocksMovedAside = new LongAdder();
  public final LongAdder retentionDeletions = new LongAdder();
  private final Map<String, LongAdder> rejected = new ConcurrentHashMap<>();

  public void reject(String reason) {
    rejected.computeIfAbsent(reason, r -> new LongAdder()).increment();
  }

  /** Rejected samples by reason, a snapshot. */
  public Map<String, Long> rejectedByReason() {
    Map<String, Long> copy = new java.util.TreeMap<>();
    rejected.forEach((reason, count) -> copy.put(reason, count.sum()));
    return copy;
  }

  void recordFsync(long nanos) {
    walFsyncs.increment();
    walFsyncNanos.add(nanos);
  }
}
