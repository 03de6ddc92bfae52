package io.flightdeck.tensorboard;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.DuplicateSampleException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Committed samples in memory, per series, with the TSDB's duplicate rule: the same value at an
 * existing timestamp is a no-op, another value is rejected. Appenders may work on several threads
 * at once; read the samples once they are done.
 */
final class RecordingAppendable implements Appendable {
  record Sample(long t, double v) {}

  final Map<Labels, TreeMap<Long, Double>> series = new TreeMap<>();
  int commits;

  @Override
  public Appender appender() {
    List<Object[]> batch = new ArrayList<>();
    return new Appender() {
      @Override
      public long append(long ref, Labels labels, long t, double v) {
        Double existing;
        synchronized (RecordingAppendable.this) {
          existing = series.getOrDefault(labels, new TreeMap<>()).get(t);
        }
        if (existing != null && existing != v) {
          throw new DuplicateSampleException("duplicate " + labels + " at " + t);
        }
        batch.add(new Object[] {labels, t, v});
        return 1;
      }

      @Override
      public void updateMetadata(String metricName, MetricMetadata metadata) {}

      @Override
      public void commit() {
        synchronized (RecordingAppendable.this) {
          for (Object[] s : batch) {
            series
                .computeIfAbsent((Labels) s[0], l -> new TreeMap<>())
                .put((Long) s[1], (Double) s[2]);
          }
          commits++;
        }
      }

      @Override
      public void rollback() {
        batch.clear();
      }
    };
  }

  /** The samples of one series in time order, empty when there is none. */
  List<Sample> samples(Labels labels) {
    List<Sample> out = new ArrayList<>();
    series.getOrDefault(labels, new TreeMap<>()).forEach((t, v) -> out.add(new Sample(t, v)));
    return out;
  }

  long sampleCount() {
    return series.values().stream().mapToLong(Map::size).sum();
  }
}
