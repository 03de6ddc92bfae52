package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.block.BlockMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole blocks leave by age (from the newest sample) and, oldest first, by total size. */
class RetentionTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  @Test
  void blocksOlderThanTheRetentionTimeAreDeleted() throws Exception {
    TsdbOptions options = TsdbTesting.options(dir, clock).withRetention(Duration.ofHours(12));
    try (Tsdb tsdb = Tsdb.open(options)) {
      CompactionTest.scrape(tsdb, NOW - 11 * HOUR, NOW);
      tsdb.compact();
      long before = tsdb.blockMetas().size();
      clock.advance(Duration.ofHours(6));
      CompactionTest.scrape(tsdb, NOW, NOW + 6 * HOUR);
      tsdb.compact();
      List<BlockMeta> blocks = tsdb.blockMetas();
      assertThat(blocks).isNotEmpty();
      assertThat(blocks).allMatch(b -> b.maxTime() > NOW + 6 * HOUR - 15_000 - 12 * HOUR);
      assertThat(tsdb.metrics().retentionDeletions.sum()).isPositive();
      assertThat(before).isPositive();
      List<String> samples = dump(tsdb, all);
      long oldest = Long.parseLong(samples.get(0).replaceAll(".*@(\\d+)=.*", "$1"));
      assertThat(oldest).isGreaterThanOrEqualTo(NOW + 6 * HOUR - 12 * HOUR - 2 * HOUR);
      for (BlockMeta meta : blocks) {
        assertThat(Files.isDirectory(dir.resolve(meta.ulid()))).isTrue();
      }
    }
  }

  @Test
  void theOldestBlocksGoWhenTheSizeLimitIsExceeded() throws Exception {
    TsdbOptions unlimited = TsdbTesting.options(dir, clock);
    long blockBytes;
    int fullBlocks;
    try (Tsdb tsdb = Tsdb.open(unlimited)) {
      CompactionTest.scrape(tsdb, NOW - 20 * HOUR, NOW);
      tsdb.compact();
      blockBytes = tsdb.sizeBytes() - tsdb.walSizeBytes();
      fullBlocks = tsdb.blockMetas().size();
    }
    long walBytes;
    try (Tsdb tsdb = Tsdb.open(unlimited)) {
      walBytes = tsdb.walSizeBytes(); // the WAL counts too, and no block deletion can shrink it
    }
    long limit = walBytes + 64 + blockBytes / 2;
    try (Tsdb tsdb = Tsdb.open(unlimited.withRetentionBytes(limit))) {
      long newestBlockEnd = tsdb.blockMetas().get(tsdb.blockMetas().size() - 1).maxTime();
      tsdb.compact();
      assertThat(tsdb.sizeBytes()).isLessThanOrEqualTo(limit);
      assertThat(tsdb.blockMetas().size()).isLessThan(fullBlocks);
      assertThat(tsdb.blockMetas().get(tsdb.blockMetas().size() - 1).maxTime())
          .as("the newest block stays")
          .isEqualTo(newestBlockEnd);
    }
  }
}
