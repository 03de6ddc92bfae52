package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash after head data went to a block but before the WAL checkpoint: replay must not bring the
 * flushed samples back into the head (they would be written to blocks a second time), and must keep
 * the samples logged after the block writer's snapshot.
 */
class CrashAfterFlushTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  @Test
  void replaySkipsWhatTheBlocksHoldAndKeepsTheRest() throws Exception {
    List<String> expected;
    int blocksAfterFlush;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      CompactionTest.scrape(tsdb, NOW - 6 * HOUR, NOW);
      assertThat(tsdb.flushHead()).isTrue();
      blocksAfterFlush = tsdb.blockMetas().size();
      assertThat(blocksAfterFlush).isPositive();
      // A lagging series still writes into the flushed range after the block was cut.
      TsdbTesting.write(tsdb, Labels.of("__name__", "late", "gpu", "9"), NOW - 5 * HOUR, 7);
      expected = dump(tsdb, all);
    } // closed without the checkpoint, as a crash there would leave it
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      long headMin = tsdb.head().minTime();
      assertThat(headMin)
          .as("only the late sample is below the blocks' end in the head")
          .isEqualTo(NOW - 5 * HOUR);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      tsdb.compact();
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      long samplesInBlocks = tsdb.blockMetas().stream().mapToLong(b -> b.numSamples()).sum();
      long inHead = TsdbTesting.count(tsdb, all) - samplesInBlocks;
      assertThat(inHead).as("no sample was written to blocks twice").isGreaterThanOrEqualTo(0);
    }
  }
}
