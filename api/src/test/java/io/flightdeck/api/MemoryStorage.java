package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.TreeMap;
import java.util.TreeSet;

/** A tiny storage for handler tests: series with their samples, all held in a sorted map. */
final class MemoryStorage implements Queryable {
  private final TreeMap<Labels, long[][]> series = new TreeMap<>();

  /** Adds a series; {@code points} are timestamp (ms), value-bits pairs written as longs. */
  MemoryStorage add(Labels labels, long[] timestamps, double[] values) {
    long[] bits = Arrays.stream(values).mapToLong(Double::doubleToRawLongBits).toArray();
    series.put(labels, new long[][] {timestamps, bits});
    return this;
  }

  @Override
  public Querier querier(long mint, long maxt) {
    return new Querier() {
      @Override
      public SeriesSet select(boolean sorted, Matcher... matchers) {
        List<Series> found = new ArrayList<>();
        series.forEach(
            (labels, points) -> {
              if (matches(labels, matchers) && hasSampleIn(points[0], mint, maxt)) {
                found.add(series(labels, points, mint, maxt));
              }
            });
        return new SeriesSet() {
          int next = -1;

          @Override
          public boolean next() {
            return ++next < found.size();
          }

          @Override
          public Series at() {
            return found.get(next);
          }
        };
      }

      @Override
      public List<String> labelNames(Matcher... matchers) {
        TreeSet<String> names = new TreeSet<>();
        series.keySet().stream()
            .filter(l -> matches(l, matchers))
            .forEach(l -> names.addAll(l.names()));
        return List.copyOf(names);
      }

      @Override
      public List<String> labelValues(String name, Matcher... matchers) {
        TreeSet<String> values = new TreeSet<>();
        series.keySet().stream()
            .filter(l -> matches(l, matchers) && l.has(name))
            .forEach(l -> values.add(l.get(name)));
        return List.copyOf(values);
      }

      @Override
      public void close() {}
    };
  }

  private static boolean matches(Labels labels, Matcher... matchers) {
    for (Matcher m : matchers) {
      String value = labels.get(m.name());
      if (!m.matches(value == null ? "" : value)) {
        return false;
      }
    }
    return true;
  }

  private static boolean hasSampleIn(long[] timestamps, long mint, long maxt) {
    return Arrays.stream(timestamps).anyMatch(t -> t >= mint && t <= maxt);
  }

  private static Series series(Labels labels, long[][] points, long mint, long maxt) {
    return new Series() {
      @Override
      public Labels labels() {
        return labels;
      }

      @Override
      public SampleIterator iterator(SampleIterator reuse) {
        return new SampleIterator() {
          int i = -1;

          @Override
          public boolean next() {
            do {
              i++;
            } while (i < points[0].length && points[0][i] < mint);
            return i < points[0].length && points[0][i] <= maxt;
          }

          @Override
          public boolean seek(long t) {
            if (i >= 0 && i < points[0].length && points[0][i] >= t) {
              return points[0][i] <= maxt;
            }
            while (next()) {
              if (points[0][i] >= t) {
                return true;
              }
            }
            return false;
          }

          @Override
          public long timestamp() {
            return points[0][i];
          }

          @Override
          public double value() {
            return Double.longBitsToDouble(points[1][i]);
          }
        };
      }
    };
  }
}
