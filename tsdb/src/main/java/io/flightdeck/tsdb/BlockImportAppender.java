package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.DuplicateSampleException;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.SampleTooFarInFutureException;
import io.flightdeck.storage.StorageException;
import java.util.List;

/**
 * One batch of a {@link BlockImport}: each sample is checked as it arrives and goes straight into
 * its series' open chunk, pending until the commit (a rollback truncates it away again). Only one
 * appender is open at a time, so a series' newest sample, pending or not, is all a check needs.
 */
final class BlockImportAppender implements Appender {
  private final BlockImport owner;
  private final long batch;
  private final long latestAccepted;
  private final List<ImportedSeries> touched;
  private boolean finished;

  /**
   * @param batch this appender's number, unique within the import
   * @param latestAccepted newest timestamp taken (the clock plus the future tolerance when the
   *     batch began)
   * @param touched the import's list for the series given samples, empty, each added once
   */
  BlockImportAppender(
      BlockImport owner, long batch, long latestAccepted, List<ImportedSeries> touched) {
    this.owner = owner;
    this.batch = batch;
    this.latestAccepted = latestAccepted;
    this.touched = touched;
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
    long last = s.maxTime();
    if (t <= last) {
      if (t == last) {
        if (Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(s.lastValue())) {
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
    if (s.lastBatch != batch) {
      s.lastBatch = batch;
      touched.add(s);
    }
    s.append(t, v);
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
    owner.commit();
  }

  @Override
  public void rollback() {
    ensureOpen();
    finished = true;
    owner.rollback();
  }

  private void ensureOpen() {
    if (finished) {
      throw new IllegalStateException("appender already committed or rolled back");
    }
  }
}
