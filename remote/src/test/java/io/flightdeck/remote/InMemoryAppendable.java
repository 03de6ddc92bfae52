package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.StorageException;
import io.flightdeck.storage.StorageUnavailableException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Storage for receiver tests: keeps committed samples and metadata in memory, refuses the samples
 * it is told to as the TSDB refuses out-of-order ones, and can become unavailable. It also polices
 * the {@link Appender} contract, which a fake that merely records calls would let slip: a ref may
 * only be passed back for the labels it was issued for, and an appender is finished by exactly one
 * commit or rollback and not used afterwards.
 */
final class InMemoryAppendable implements Appendable {

  /**
   * One committed sample. The value is kept as raw bits so that equality is bit-exact: record
   * equality on a {@code double} field would treat every NaN, the stale marker included, as equal.
   */
  record StoredSample(Labels labels, long timestampMillis, long valueBits) {
    static StoredSample of(Labels labels, long timestampMillis, double value) {
      return new StoredSample(labels, timestampMillis, Double.doubleToRawLongBits(value));
    }
  }

  private final List<StoredSample> samples = new ArrayList<>();
  private final Map<String, MetricMetadata> metadata = new HashMap<>();
  private final Map<Labels, Long> refsByLabels = new HashMap<>();
  private final Map<Long, Labels> labelsByRef = new HashMap<>();
  private Predicate<StoredSample> rejected = sample -> false;
  private boolean appendsFail;
  private boolean commitsFail;
  private int unfinishedAppenders;

  /** Samples matching {@code rule} are refused with {@link OutOfOrderSampleException}. */
  synchronized void reject(Predicate<StoredSample> rule) {
    rejected = rule;
  }

  /** Every later append throws {@link StorageUnavailableException}. */
  synchronized void failAppends() {
    appendsFail = true;
  }

  /** Every later commit throws {@link StorageUnavailableException} and stores nothing. */
  synchronized void failCommits() {
    commitsFail = true;
  }

  synchronized List<StoredSample> samples() {
    return List.copyOf(samples);
  }

  synchronized Map<String, MetricMetadata> metadata() {
    return Map.copyOf(metadata);
  }

  /** Appenders handed out but not yet committed or rolled back. */
  synchronized int unfinishedAppenders() {
    return unfinishedAppenders;
  }

  @Override
  public synchronized Appender appender() {
    unfinishedAppenders++;
    return new BatchAppender();
  }

  private synchronized long refFor(Labels labels, long ref) {
    if (ref != 0 && !labels.equals(labelsByRef.get(ref))) {
      throw new AssertionError(
          "ref " + ref + " belongs to " + labelsByRef.get(ref) + ", not to " + labels);
    }
    return refsByLabels.computeIfAbsent(
        labels,
        l -> {
          long next = refsByLabels.size() + 1L;
          labelsByRef.put(next, l);
          return next;
        });
  }

  private final class BatchAppender implements Appender {
    private final List<StoredSample> pending = new ArrayList<>();
    private final Map<String, MetricMetadata> pendingMetadata = new HashMap<>();
    private boolean finished;

    @Override
    public long append(long ref, Labels labels, long timestampMillis, double value) {
      ensureOpen();
      long assigned = refFor(labels, ref);
      StoredSample sample = StoredSample.of(labels, timestampMillis, value);
      synchronized (InMemoryAppendable.this) {
        if (appendsFail) {
          throw new StorageUnavailableException("disk full", null);
        }
        if (rejected.test(sample)) {
          throw new OutOfOrderSampleException(
              StorageException.withContext(
                  "out of order sample", "series", labels, "timestamp", timestampMillis));
        }
      }
      pending.add(sample);
      return assigned;
    }

    @Override
    public void updateMetadata(String metricName, MetricMetadata metadata) {
      ensureOpen();
      pendingMetadata.put(metricName, metadata);
    }

    @Override
    public void commit() {
      finish();
      synchronized (InMemoryAppendable.this) {
        if (commitsFail) {
          throw new StorageUnavailableException("disk full while committing", null);
        }
        samples.addAll(pending);
        metadata.putAll(pendingMetadata);
      }
    }

    @Override
    public void rollback() {
      finish();
    }

    private void finish() {
      ensureOpen();
      finished = true;
      synchronized (InMemoryAppendable.this) {
        unfinishedAppenders--;
      }
    }

    private void ensureOpen() {
      if (finished) {
        throw new AssertionError("appender used after commit or rollback");
      }
    }
  }
}
