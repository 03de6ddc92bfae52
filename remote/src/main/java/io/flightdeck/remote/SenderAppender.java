package io.flightdeck.remote;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.relabel.RelabelConfig;
import io.flightdeck.model.relabel.Relabeler;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.StorageException;
import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Collects one batch for a {@link RemoteWriteSender}: applies {@code write_relabel_configs} as
 * samples arrive and, on commit, writes them to the disk queue, all or nothing, in records of at
 * most {@code max_samples_per_send} samples. Metadata is not sent (remote write 1.0 does not need
 * it). One thread, as every appender.
 */
final class SenderAppender implements Appender {
  private final SendQueue queue;
  private final List<RelabelConfig> relabel;
  private final int maxSamplesPerRecord;
  private Labels[] labels = new Labels[64];
  private long[] timestamps = new long[64];
  private double[] values = new double[64];
  private int size;
  private boolean finished;

  SenderAppender(SendQueue queue, List<RelabelConfig> relabel, int maxSamplesPerRecord) {
    this.queue = queue;
    this.relabel = relabel;
    this.maxSamplesPerRecord = maxSamplesPerRecord;
  }

  @Override
  public long append(long ref, Labels series, long timestampMillis, double value) {
    checkOpen();
    Labels sent = relabel.isEmpty() ? series : Relabeler.process(series, relabel);
    if (sent == null || sent.isEmpty()) {
      return 0; // dropped by write relabelling, as Prometheus does: not counted as a failure
    }
    if (size == labels.length) {
      labels = Arrays.copyOf(labels, size * 2);
      timestamps = Arrays.copyOf(timestamps, size * 2);
      values = Arrays.copyOf(values, size * 2);
    }
    labels[size] = sent;
    timestamps[size] = timestampMillis;
    values[size] = value;
    size++;
    return 0;
  }

  @Override
  public void updateMetadata(String metricName, MetricMetadata metadata) {
    checkOpen();
  }

  @Override
  public void commit() {
    checkOpen();
    finished = true;
    if (size == 0) {
      return;
    }
    List<SendQueue.Entry> records = new ArrayList<>();
    for (int from = 0; from < size; from += maxSamplesPerRecord) {
      int to = Math.min(size, from + maxSamplesPerRecord);
      records.add(
          new SendQueue.Entry(
              TimeSeriesEncoder.encode(labels, timestamps, values, from, to), to - from));
    }
    try {
      queue.append(records);
    } catch (IOException e) {
      throw new StorageUnavailableException(
          StorageException.withContext(
              "cannot queue samples for remote write: " + e.getMessage(), "samples", size),
          e);
    }
  }

  @Override
  public void rollback() {
    checkOpen();
    finished = true;
  }

  private void checkOpen() {
    if (finished) {
      throw new IllegalStateException("the appender was already committed or rolled back");
    }
  }
}
