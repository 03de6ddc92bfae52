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
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Readers of a series' open chunk read the writer's buffer in place: whatever is appended after a
 * select, into the same bytes or a grown array, must not change what that select returns.
 */
class OpenChunkReadersTest {
  private static final Labels SERIES = Labels.of("__name__", "loss", "run", "a");
  private static final int SAMPLES = 3_000;

  @TempDir Path dir;

  private final long[] times = new long[SAMPLES];
  private final double[] values = new double[SAMPLES];

  OpenChunkReadersTest() {
    Random random = new Random(42);
    long t = NOW - SAMPLES * 15_000L;
    for (int i = 0; i < SAMPLES; i++) {
      t += 14_000 + random.nextInt(2_000); // scrape jitter: varying delta-of-delta widths
      times[i] = t;
      // Varying leading and trailing zeros in the XOR, and now and then a repeat.
      values[i] = random.nextInt(10) == 0 && i > 0 ? values[i - 1] : random.nextGaussian() * 1e3;
    }
  }

  @Test
  void aSelectKeepsItsSamplesWhileTheWriterAppendsAndGrowsTheBuffer() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, new ManualClock(NOW)))) {
      append(tsdb, 0, 7);
      try (Querier querier = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
        SeriesSet set = querier.select(false, Matcher.equal("__name__", "loss"));
        assertThat(set.next()).isTrue();
        SampleIterator it = set.at().iterator(null);
        append(tsdb, 7, 100); // many more bytes: the open chunk's array grows meanwhile
        assertPrefix(it, 7);
      }
    }
  }

  @Test
  void concurrentSelectsAlwaysSeeAnExactPrefixOfWhatWasWritten() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    AtomicBoolean writing = new AtomicBoolean(true);
    // The writer goes on past its first sample only once the reader has read it: on a loaded
    // machine the writer could otherwise write every sample before the reader's first look.
    CountDownLatch firstRead = new CountDownLatch(1);
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, new ManualClock(NOW)))) {
      Future<?> writer =
          pool.submit(
              () -> {
                append(tsdb, 0, 1);
                firstRead.await();
                for (int i = 1; i < SAMPLES; i++) {
                  append(tsdb, i, i + 1);
                }
                writing.set(false);
                return null;
              });
      Future<Integer> reader =
          pool.submit(
              () -> {
                int reads = 0;
                while (writing.get() && reads < 100_000) {
                  try (Querier querier = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
                    SeriesSet set = querier.select(false, Matcher.equal("__name__", "loss"));
                    if (set.next()) {
                      assertPrefix(set.at().iterator(null), -1);
                      reads++;
                      firstRead.countDown();
                    }
                  }
                }
                return reads;
              });
      writer.get(120, TimeUnit.SECONDS);
      assertThat(reader.get(120, TimeUnit.SECONDS)).isPositive();
    } finally {
      pool.shutdownNow();
    }
  }

  private void append(Tsdb tsdb, int from, int to) {
    Appender app = tsdb.appender();
    for (int i = from; i < to; i++) {
      app.append(0, SERIES, times[i], values[i]);
    }
    app.commit();
  }

  /** The iterator yields samples 0..n-1 exactly (n = -1: however many, but in order and exact). */
  private void assertPrefix(SampleIterator it, int n) {
    List<String> mismatches = new ArrayList<>();
    int i = 0;
    while (it.next()) {
      if (it.timestamp() != times[i]
          || Double.doubleToRawLongBits(it.value()) != Double.doubleToRawLongBits(values[i])) {
        mismatches.add(i + ": " + it.timestamp() + "=" + it.value());
      }
      i++;
    }
    assertThat(mismatches).isEmpty();
    if (n >= 0) {
      assertThat(i).isEqualTo(n);
    }
  }
}
