package io.flightdeck.promql.engine;

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
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small storage for engine tests: series kept in arrays, and a count of every sample an iterator
 * hands out, so tests can check how often the engine reads the same data.
 */
final class InMemoryStorage implements Queryable {
  private final Map<Labels, long[]> times = new TreeMap<>();
  private final Map<Labels, double[]> values = new TreeMap<>();
  final AtomicLong samplesServed = new AtomicLong();

  /** Adds a series with one sample every {@code stepMs} from 0, values {@code f(i)}. */
  InMemoryStorage add(
      Labels labels, int count, long stepMs, java.util.function.IntToDoubleFunction f) {
    long[] t = new long[count];
    double[] v = new double[count];
    for (int i = 0; i < count; i++) {
      t[i] = i * stepMs;
      v[i] = f.applyAsDouble(i);
    }
    times.put(labels, t);
    values.put(labels, v);
    return this;
  }

  @Override
  public Querier querier(long mint, long maxt) {
    return new Querier() {
      @Override
      public SeriesSet select(boolean sorted, Matcher... matchers) {
        List<Series> matching = new ArrayList<>();
        for (Labels labels : times.keySet()) {
          if (Arrays.stream(matchers).allMatch(m -> m.matches(labels.get(m.name())))) {
            matching.add(series(labels, mint, maxt));
          }
        }
        return new SeriesSet() {
          int next = -1;

          @Override
          public boolean next() {
            return ++next < matching.size();
          }

          @Override
          public Series at() {
            return matching.get(next);
          }
        };
      }

      @Override
      public List<String> labelNames(Matcher... matchers) {
        TreeSet<String> names = new TreeSet<>();
        times.keySet().forEach(l -> names.addAll(l.names()));
        return new ArrayList<>(names);
      }

      @Override
      public List<String> labelValues(String name, Matcher... matchers) {
        TreeSet<String> out = new TreeSet<>();
        times.keySet().forEach(l -> out.add(l.get(name)));
        return new ArrayList<>(out);
      }

      @Override
      public void close() {}
    };
  }

  private Series series(Labels labels, long mint, long maxt) {
    long[] t = times.get(labels);
    double[] v = values.get(labels);
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
            } while (i < t.length && t[i] < mint);
            boolean ok = i < t.length && t[i] <= maxt;
            if (ok) {
              samplesServed.incrementAndGet();
            }
            return ok;
          }

          @Override
          public boolean seek(long target) {
            if (i >= 0 && i < t.length && t[i] >= target) {
              return t[i] <= maxt;
            }
            int found = Arrays.binarySearch(t, Math.max(target, mint));
            i = (found >= 0 ? found : -found - 1) - 1;
            return next();
          }

          @Override
          public long timestamp() {
            return t[i];
          }

          @Override
          public double value() {
            return v[i];
          }
        };
      }
    };
  }
}
