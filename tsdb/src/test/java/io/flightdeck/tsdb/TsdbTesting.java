package io.flightdeck.tsdb;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.storage.StorageContractTest;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Shared helpers for the database's tests. */
final class TsdbTesting {
  /** 2026-11-30T00:00:00Z: tests run on a manual clock, never on wall time. */
  static final long NOW = 1_796_083_200_000L;

  private TsdbTesting() {}

  static TsdbOptions options(Path dir, ManualClock clock) {
    return TsdbOptions.defaults(dir).withClock(clock).withRetention(Duration.ofDays(30));
  }

  /** Adapts a Tsdb to the storage contract's store. */
  static StorageContractTest.Store asStore(Tsdb tsdb) {
    return new StorageContractTest.Store() {
      @Override
      public Appender appender() {
        return tsdb.appender();
      }

      @Override
      public Querier querier(long mint, long maxt) {
        return tsdb.querier(mint, maxt);
      }

      @Override
      public void close() throws Exception {
        tsdb.close();
      }
    };
  }

  static void write(Tsdb tsdb, Labels labels, long t, double v) {
    Appender app = tsdb.appender();
    app.append(0, labels, t, v);
    app.commit();
  }

  /** All samples of the matching series as "labels@t=v", series in label order. */
  static List<String> dump(Tsdb tsdb, Matcher... matchers) {
    List<String> out = new ArrayList<>();
    try (Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, matchers);
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          out.add(set.at().labels() + "@" + it.timestamp() + "=" + it.value());
        }
      }
    }
    return out;
  }

  static long count(Tsdb tsdb, Matcher... matchers) {
    return dump(tsdb, matchers).size();
  }
}
