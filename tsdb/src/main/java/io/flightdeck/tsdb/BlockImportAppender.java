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
 * One batch of a {@link BlockImport}'s lane: each sample is checked as it arrives and goes straight
 * into its series' open chunk, pending until the commit (a rollback truncates it away again). Only
 * one appender of a lane is open at a time, so a series' newest sample, pending or not, is all a
 * check needs.
 */
final class BlockImportAppender implements Appender {
  /** What {@link #add} did with a sample: the first two take it, the others refuse it. */
  private static final int ADDED = 0;

  private static final int SAME = 1;
  private static final int DUPLICATE = 2;
  private static final int OUT_OF_ORDER = 3;

  private final ImportLane owner;
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
      ImportLane owner, long batch, long latestAccepted, List<ImportedSeries> touched) {
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
    switch (add(s, t, v)) {
      case DUPLICATE ->
          throw new DuplicateSampleException(
              StorageException.withContext(
                  "duplicate sample for timestamp with a different value",
                  "series",
                  labels,
                  "timestamp",
                  t));
      case OUT_OF_ORDER ->
          throw new OutOfOrderSampleException(
              StorageException.withContext(
                  "out of order sample in an import",
                  "series",
                  labels,
                  "timestamp",
                  t,
                  "newest",
                  s.maxTime()));
      default -> {
        return s.ref;
      }
    }
  }

  /**
   * {@link #append} of each sample without an exception per refused one: a histogram's bucket
   * series, thirty-odd samples at one time, in one call instead of one each.
   */
  @Override
  public int appendAll(long[] refs, Labels[] labels, long t, double[] values, int count) {
    ensureOpen();
    if (t > latestAccepted) {
      return count;
    }
    int refused = 0;
    for (int i = 0; i < count; i++) {
      ImportedSeries s = owner.series(refs[i], labels[i]);
      double v = values[i];
      // add's steps written out: C1 inlines the series' append here, not two calls deep.
      if (t > s.maxTime()) {
        taken(s);
        s.append(t, v);
        refs[i] = s.ref;
      } else if (notNewer(s, t, v) == SAME) {
        refs[i] = s.ref;
      } else {
        refused++;
      }
    }
    return refused;
  }

  /**
   * Adds the sample to {@code s} if it is newer than the series' newest; {@link #SAME} when it
   * repeats that sample, a no-op; else why it is refused. Small enough for C1 to inline.
   */
  private int add(ImportedSeries s, long t, double v) {
    if (t <= s.maxTime()) {
      return notNewer(s, t, v);
    }
    taken(s);
    s.append(t, v);
    return ADDED;
  }

  /** Notes {@code s} among the series this batch gave a sample, once. */
  private void taken(ImportedSeries s) {
    if (s.lastBatch != batch) {
      s.lastBatch = batch;
      touched.add(s);
    }
  }

  private static int notNewer(ImportedSeries s, long t, double v) {
    if (t < s.maxTime()) {
      return OUT_OF_ORDER;
    }
    return Double.doubleToRawLongBits(v) == Double.doubleToRawLongBits(s.lastValue())
        ? SAME
        : DUPLICATE;
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
