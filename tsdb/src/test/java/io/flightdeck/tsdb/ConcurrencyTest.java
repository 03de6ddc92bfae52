package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Writers, readers and compaction at once. Each writer commits one sample to each of its series per
 * batch, so a consistent snapshot shows the same sample count in all series of a writer; and a
 * reader must never see a count go down (data lost while the head is cut into blocks).
 */
class ConcurrencyTest {
  static final int WRITERS = 3;
  static final int SERIES_PER_WRITER = 40;
  static final int BATCHES = 400;
  static final long STEP = 60_000;

  @TempDir Path dir;

  @Test
  void queriesSeeWholeCommitsWhileWritingAndCompacting() throws Exception {
    ManualClock clock = new ManualClock(NOW);
    TsdbOptions options = TsdbTesting.options(dir, clock).withBlockRange(Duration.ofHours(1));
    long start = NOW - BATCHES * STEP;
    ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    AtomicBoolean writing = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS + 3);
    try (Tsdb tsdb = Tsdb.open(options)) {
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String writer = "w" + w;
        writers.add(
            pool.submit(
                () -> {
                  for (int b = 0; b < BATCHES; b++) {
                    Appender app = tsdb.appender();
                    for (int s = 0; s < SERIES_PER_WRITER; s++) {
                      app.append(
                          0,
                          Labels.of("__name__", "g", "writer", writer, "s", Integer.toString(s)),
                          start + b * STEP,
                          b);
                    }
                    app.commit();
                  }
                  return null;
                }));
      }
      List<Future<?>> others = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        others.add(pool.submit(() -> readUntilDone(tsdb, writing, violations)));
      }
      others.add(
          pool.submit(
              () -> {
                while (writing.get()) {
                  tsdb.compact();
                  Thread.sleep(5);
                }
                return null;
              }));
      for (Future<?> f : writers) {
        f.get(120, TimeUnit.SECONDS);
      }
      writing.set(false);
      for (Future<?> f : others) {
        f.get(120, TimeUnit.SECONDS);
      }
      assertThat(violations).isEmpty();
      assertThat(tsdb.blockMetas()).as("compaction ran meanwhile").isNotEmpty();
      for (int w = 0; w < WRITERS; w++) {
        assertThat(counts(tsdb, "w" + w)).containsOnly((long) BATCHES).hasSize(SERIES_PER_WRITER);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  private Void readUntilDone(
      Tsdb tsdb, AtomicBoolean writing, ConcurrentLinkedQueue<String> violations) {
    long[] lastSeen = new long[WRITERS];
    for (int round = 0; round < 100_000 && writing.get(); round++) {
      for (int w = 0; w < WRITERS; w++) {
        List<Long> counts = counts(tsdb, "w" + w);
        Set<Long> distinct = new HashSet<>(counts);
        if (distinct.size() > 1) {
          violations.add("writer w" + w + " partly visible: " + counts);
        }
        if (!counts.isEmpty()) {
          long now = counts.get(0);
          if (now < lastSeen[w]) {
            violations.add("writer w" + w + " went back from " + lastSeen[w] + " to " + now);
          }
          lastSeen[w] = now;
        }
      }
    }
    return null;
  }

  private static List<Long> counts(Tsdb tsdb, String writer) {
    List<Long> counts = new ArrayList<>();
    try (Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(false, Matcher.equal("writer", writer));
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        long n = 0;
        long previous = Long.MIN_VALUE;
        while (it.next()) {
          if (it.timestamp() <= previous) {
            throw new AssertionError("timestamps not increasing in " + set.at().labels());
          }
          previous = it.timestamp();
          n++;
        }
        counts.add(n);
      }
    }
    return counts;
  }
}
