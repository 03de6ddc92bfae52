package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reader passes the iterator of one series back when it asks for the next one; blocks, head and
 * their merger reset it in place. Whatever state the last series left it in (half read, drained,
 * stopped early, sought past its end), the next series must read as through a fresh iterator.
 */
class IteratorReuseTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);

  @Test
  void aReusedIteratorReadsEverySeriesAsAFreshOneDoes() throws Exception {
    Random random = new Random(11);
    int resets = 0;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      writeSeriesOfVaryingSpans(tsdb, random);
      tsdb.compact();
      assertThat(tsdb.blockMetas()).as("some series are merged from blocks and head").isNotEmpty();
      for (int probe = 0; probe < 40; probe++) {
        long mint = NOW - 8 * HOUR + random.nextInt((int) (8 * HOUR));
        long maxt = mint + random.nextInt((int) (4 * HOUR));
        try (Querier fresh = tsdb.querier(mint, maxt);
            Querier reusing = tsdb.querier(mint, maxt)) {
          SeriesSet freshSet = fresh.select(true, Matcher.regex("__name__", ".+"));
          SeriesSet reusingSet = reusing.select(true, Matcher.regex("__name__", ".+"));
          SampleIterator reused = null;
          while (freshSet.next()) {
            assertThat(reusingSet.next()).isTrue();
            long seekTo = mint + random.nextInt((int) (maxt - mint + 1));
            long drainTo = seekTo + random.nextInt((int) HOUR);
            String expected = read(freshSet.at().iterator(null), seekTo, drainTo);
            SampleIterator next = reusingSet.at().iterator(reused);
            resets += next == reused ? 1 : 0;
            reused = next;
            assertThat(read(reused, seekTo, drainTo))
                .as("%s in [%d, %d]", freshSet.at().labels(), mint, maxt)
                .isEqualTo(expected);
          }
          assertThat(reusingSet.next()).isFalse();
        }
      }
    }
    assertThat(resets).as("iterators handed back and reset in place").isGreaterThan(100);
  }

  /**
   * Series that start and end at different hours, so that a query sees some in blocks only, some in
   * the head only and some in both; values both short decimals and not, in chunks of each encoding.
   */
  private static void writeSeriesOfVaryingSpans(Tsdb tsdb, Random random) {
    int seriesCount = 12;
    long[] from = new long[seriesCount];
    long[] to = new long[seriesCount];
    for (int s = 0; s < seriesCount; s++) {
      from[s] = NOW - HOUR * (1 + random.nextInt(8));
      to[s] = Math.min(NOW, from[s] + HOUR * (1 + random.nextInt(8)));
    }
    for (long t = NOW - 8 * HOUR; t < NOW; t += 15_000) {
      Appender app = tsdb.appender();
      for (int s = 0; s < seriesCount; s++) {
        if (t >= from[s] && t < to[s] && random.nextInt(50) != 0) {
          double v = s % 2 == 0 ? random.nextInt(1000) / 8.0 : random.nextGaussian();
          app.append(0, Labels.of("__name__", "m", "s", Integer.toString(s)), t, v);
        }
      }
      app.commit();
    }
  }

  /** Seeks, steps through a few samples, then drains the rest up to {@code drainTo}. */
  private static String read(SampleIterator it, long seekTo, long drainTo) {
    StringBuilder out = new StringBuilder();
    if (!it.seek(seekTo)) {
      return "nothing from " + seekTo;
    }
    for (int i = 0; i < 3; i++) {
      out.append(it.timestamp()).append('=').append(it.value()).append(' ');
      if (!it.next()) {
        return out.append("end").toString();
      }
    }
    SampleBuffer rest = new SampleBuffer(16);
    boolean more = it.drainTo(rest, drainTo);
    for (int i = 0; i < rest.size(); i++) {
      out.append(rest.timestamps()[i]).append('=').append(rest.values()[i]).append(' ');
    }
    return out.append(more ? "more" : "end").toString();
  }
}
