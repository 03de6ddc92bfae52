package io.flightdeck.scrape;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.OutOfOrderSampleException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Keeps committed samples in memory, refusing out-of-order ones like a real store. */
final class RecordingStorage implements Appendable {
  record Sample(Labels labels, long timestamp, double value) {}

  private final List<Sample> samples = new ArrayList<>();
  private final Map<Labels, Long> newest = new HashMap<>();
  private final Map<String, MetricMetadata> metadata = new HashMap<>();
  private int commits;

  @Override
  public Appender appender() {
    return new Appender() {
      private final List<Sample> batch = new ArrayList<>();
      private final Map<String, MetricMetadata> meta = new HashMap<>();

      @Override
      public long append(long ref, Labels labels, long timestampMillis, double value) {
        synchronized (RecordingStorage.this) {
          Long last = newest.get(labels);
          if (last != null && timestampMillis < last) {
            throw new OutOfOrderSampleException("out of order");
          }
        }
        batch.add(new Sample(labels, timestampMillis, value));
        return labels.stableHash();
      }

      @Override
      public void updateMetadata(String metricName, MetricMetadata m) {
        meta.put(metricName, m);
      }

      @Override
      public void commit() {
        synchronized (RecordingStorage.this) {
          for (Sample s : batch) {
            samples.add(s);
            newest.merge(s.labels(), s.timestamp(), Math::max);
          }
          metadata.putAll(meta);
          commits++;
        }
      }

      @Override
      public void rollback() {
        batch.clear();
      }
    };
  }

  synchronized List<Sample> samples() {
    return List.copyOf(samples);
  }

  /** Samples of series whose metric name is {@code name}. */
  synchronized List<Sample> named(String name) {
    return samples.stream().filter(s -> s.labels().metricName().equals(name)).toList();
  }

  /** Samples at one timestamp. */
  synchronized List<Sample> at(long timestamp) {
    return samples.stream().filter(s -> s.timestamp() == timestamp).toList();
  }

  synchronized int commits() {
    return commits;
  }

  synchronized Map<String, MetricMetadata> metadata() {
    return Map.copyOf(metadata);
  }
}
