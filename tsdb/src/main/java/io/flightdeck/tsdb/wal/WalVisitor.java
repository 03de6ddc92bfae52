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
}
