package io.flightdeck.tsdb.wal;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;

/** Receives the entries of WAL records in log order during replay. */
public interface WalVisitor {
  void series(long ref, Labels labels);

  void sample(long ref, long timestamp, double value);

  void metadata(String metricName, MetricMetadata metadata);

  /** Samples of series {@code ref} within [mint, maxt] were deleted. */
  void tombstone(long ref, long mint, long maxt);

  /**
   * Every sample within [mint, maxt] logged before WAL position ({@code segment}, {@code offset})
   * is in a block on disk. Replay delivers these markers before any other record.
   */
  default void blockFlushed(long mint, long maxt, int segment, long offset) {}

  /** The record about to be delivered starts here; checkpoint records come from segment -1. */
  default void position(int segment, long offset) {}
}
