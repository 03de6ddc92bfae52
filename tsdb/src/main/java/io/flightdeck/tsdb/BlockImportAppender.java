package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.DuplicateSampleException;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.SampleTooFarInFutureException;
import io.flightdeck.storage.StorageException;

/**
 * One batch of a {@link BlockImport}: checked sample by sample as it arrives, handed to the import
 * on commit. The newest pending sample of each series lives on the series itself (one appender at a
 * time), so a check costs no lookup beyond the series.
 */
final class BlockImportAppender implements Appender {
  private final BlockImport owner;
  private final long latestAccepted;
  private final SampleColumns<ImportedSeries> batch;
  private boolean finished;

  /**
   * @param latestAccepted newest timestamp taken (the clock plus the future tolerance when the
   *     batch began)
   * @param batch the import's batch, empty, for this appender's samples
   */
  BlockImportAppender(BlockImport owner, long latestAccepted, SampleColumns<ImportedSeries> batch) {
    this.owner = owner;
    this.latestAccepted = latestAccepted;
    this.batch = batch;
  }

  @Override
  public long append(long ref, Labels labels, long t, double v) {
    ensureOpen();
    if (t > latestAccepted) {
      throw new SampleTooFarInFutureException(
          StorageException.withContext(
              "sample timestamp is too far in the future",
              "series",
              labels,
              "timestamp",
              t,
              "latest_accepted",
              latestAccepted));
    }
    ImportedSeries s = owner.series(ref, labels);
    boolean pending = s.pendingMaxTime != Long.MIN_VALUE;
    long last = pending ? s.pendingMaxTime : s.maxTime();
    if (t <= last) {
      double lastValue = pending ? s.pendingLastValue : s.lastValue();
      if (t == last) {
        if (Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(lastValue)) {
          return s.ref;
        }
        throw new DuplicateSampleException(
            StorageException.withContext(
                "duplicate sample for timestamp with a different value",
                "series",
                labels,
                "timestamp",
                t));
      }
      throw new OutOfOrderSampleException(
          StorageException.withContext(
              "out of order sample in an import",
              "series",
              labels,
              "timestamp",
              t,
              "newest",
              last));
    }
    s.pendingMaxTime = t;
    s.pendingLastValue = v;
    batch.add(s, t, v);
    return s.ref;
  }

  /** Block imports keep samples only: blocks have no place for metadata. */
  @Override
  public void updateMetadata(String metricName, MetricMetadata metadata) {
    throw new UnsupportedOperationException("a block import does not keep metadata");
  }

  /** Buffers the batch; it is durable once the import flushes it (see {@link BlockImport}). */
  @Override
  public void commit() {
    ensureOpen();
    finished = true;
    owner.commit(batch); // clears the pending state in the same pass
  }

  @Override
  public void rollback() {
    ensureOpen();
    finished = true;
    clearPending();
    batch.clear();
    owner.rolledBack();
  }

  private void clearPending() {
    for (int i = 0; i < batch.size(); i++) {
      batch.series(i).pendingMaxTime = Long.MIN_VALUE;
    }
  }

  private void ensureOpen() {
    if (finished) {
      throw new IllegalStateException("appender already committed or rolled back");
    }
  }
}
