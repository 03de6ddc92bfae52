package io.flightdeck.storage;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;

/**
 * A batch of samples that becomes visible, and durable, all at once on {@link #commit()}.
 *
 * <p>Contract: an appender is used by one thread at a time and must end in exactly one {@link
 * #commit()} or {@link #rollback()}; after either it must not be used again. Samples are not
 * visible to queries before commit. When {@code commit()} returns, the samples are acknowledged:
 * they survive a crash of the process.
 */
public interface Appender {
  /**
   * Adds one sample.
   *
   * @param ref a reference returned by an earlier append for the same labels, or 0 when unknown;
   *     passing it skips the series lookup
   * @return the series reference to pass next time for the same labels
   * @throws SampleRejectedException when this sample alone is refused (out of order, too old,
   *     limits); the appender stays usable and the other samples are unaffected
   * @throws StorageUnavailableException when storage cannot take writes now (disk full, closing)
   */
  long append(long ref, Labels labels, long timestampMillis, double value);

  /** Records type, help and unit of a metric family; stored on commit. */
  void updateMetadata(String metricName, MetricMetadata metadata);

  /** Makes the batch durable and visible. */
  void commit();

  /** Discards the batch. */
  void rollback();
}
