package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.count;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting series by matchers and time range, in the head and in blocks, across restarts. */
class DeleteTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);

  @Test
  void deletedSamplesStayDeletedInHeadBlocksAndAfterRestart() throws Exception {
    Matcher gpu3 = Matcher.equal("gpu", "3");
    Matcher others = Matcher.notEqual("gpu", "3");
    long othersBefore;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      CompactionTest.scrape(tsdb, NOW - 8 * HOUR, NOW);
      tsdb.compact();
      assertThat(tsdb.blockMetas()).isNotEmpty();
      othersBefore = count(tsdb, Matcher.regex("__name__", ".+"), others);
      assertThat(count(tsdb, gpu3)).isEqualTo(8 * 240);

      tsdb.delete(NOW - 6 * HOUR, NOW, gpu3);
      assertThat(count(tsdb, gpu3)).isEqualTo(2 * 240);
      assertThat(count(tsdb, Matcher.regex("__name__", ".+"), others)).isEqualTo(othersBefore);
    }
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(count(tsdb, gpu3)).as("tombstones and WAL survive a restart").isEqualTo(2 * 240);
      CompactionTest.scrape(tsdb, NOW + 15_000, NOW + 15_001);
      assertThat(count(tsdb, gpu3)).isEqualTo(2 * 240 + 1);
    }
  }
}
