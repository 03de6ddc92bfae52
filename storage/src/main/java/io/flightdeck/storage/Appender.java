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

  /**
   * Adds one sample at {@code timestampMillis} to each of {@code count} series, {@code values[i]}
   * to the series of {@code refs[i]} and {@code labels[i]}, as {@code count} calls of {@link
   * #append} would: {@code refs[i]} becomes the reference to pass next time. A sample refused alone
   * ({@link SampleRejectedException}) is skipped, its reference left as it was.
   *
   * @return how many samples were refused
   * @throws StorageUnavailableException when storage cannot take writes now
   */
  default int appendAll(
      long[] refs, Labels[] labels, long timestampMillis, double[] values, int count) {
    int refused = 0;
    for (int i = 0; i < count; i++) {
      try {
        refs[i] = append(refs[i], labels[i], timestampMillis, values[i]);
      } catch (SampleRejectedException e) {
        refused++;
      }
    }
    return refused;
  }

  /** Records type, help and unit of a metric family; stored on commit. */
  void updateMetadata(String metricName, MetricMetadata metadata);

  /** Makes the batch durable and visible. */
  void commit();

  /** Discards the batch. */
  void rollback();
}
