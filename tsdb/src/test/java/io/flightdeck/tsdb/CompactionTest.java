package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.count;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.block.BlockMeta;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The head is cut into blocks, blocks are merged, and nothing is lost or doubled on the way. */
class CompactionTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  /** 20 GPU series at a 15 s interval over [from, to). */
  static void scrape(Tsdb tsdb, long from, long to) {
    for (long t = from; t < to; t += 15_000) {
      Appender app = tsdb.appender();
      for (int gpu = 0; gpu < 20; gpu++) {
        app.append(
            0,
            Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "gpu", Integer.toString(gpu)),
            t,
            (t / 15_000 + gpu) % 100);
      }
      app.commit();
    }
  }

  @Test
  void theHeadCountsItsChunksOpenOnesIncluded() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      long start = NOW - HOUR;
      scrape(tsdb, start, start + 120 * 15_000);
      assertThat(tsdb.head().numChunks()).as("120 samples fill one chunk per series").isEqualTo(20);

      scrape(tsdb, start + 120 * 15_000, start + 121 * 15_000);
      assertThat(tsdb.head().numChunks()).as("the 121st opens a second").isEqualTo(40);
    }
  }

  @Test
  void theHeadIsCutIntoBlocksAndTheWalCheckpointed() throws Exception {
    long start = NOW - 7 * HOUR;
    List<String> expected;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      scrape(tsdb, start, NOW);
      expected = dump(tsdb, all);
      assertThat(expected).hasSize(20 * 7 * 240);
      tsdb.compact();
      List<BlockMeta> blocks = tsdb.blockMetas();
      assertThat(blocks).isNotEmpty();
      for (BlockMeta meta : blocks) {
        assertThat(meta.maxTime()).isLessThanOrEqualTo(NOW - HOUR);
      }
      assertThat(tsdb.head().minTime())
          .as("the head keeps the last 1.5 ranges at most")
          .isGreaterThanOrEqualTo(NOW - 3 * HOUR);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      try (Stream<Path> wal = Files.list(dir.resolve("wal"))) {
        assertThat(wal.map(p -> p.getFileName().toString()))
            .anyMatch(n -> n.startsWith("checkpoint."));
      }
    }
    try (Tsdb reopened = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(reopened, all))
          .as("after restart: blocks + checkpoint + WAL")
          .containsExactlyElementsOf(expected);
    }
  }

  @Test
  void adjacentBlocksAreMergedIntoLargerWindows() throws Exception {
    long start = NOW - 30 * HOUR;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      scrape(tsdb, start, NOW);
      List<String> expected = dump(tsdb, all);
      tsdb.compact();
      List<BlockMeta> blocks = tsdb.blockMetas();
      assertThat(blocks).anyMatch(b -> b.maxTime() - b.minTime() >= 6 * HOUR);
      assertThat(blocks).anyMatch(b -> b.level() > 1 && b.sources().size() >= 3);
      for (int i = 0; i + 1 < blocks.size(); i++) {
        assertThat(blocks.get(i).maxTime())
            .as("blocks do not overlap")
            .isLessThanOrEqualTo(blocks.get(i + 1).minTime());
      }
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      long onDisk;
      try (Stream<Path> entries = Files.list(dir)) {
        onDisk = entries.filter(p -> p.getFileName().toString().length() == 26).count();
      }
      assertThat(onDisk).as("merged blocks are deleted from disk").isEqualTo(blocks.size());
    }
  }

  @Test
  void oldDataArrivingLaterGetsBlocksOfItsOwn() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      scrape(tsdb, NOW - 5 * HOUR, NOW);
      tsdb.compact();
      long headStart = tsdb.head().minValidTime();
      assertThat(headStart).isGreaterThan(NOW - 5 * HOUR);

      // Last month's TensorBoard run imported today, and an old sample of a live series.
      long monthAgo = NOW - Duration.ofDays(25).toMillis();
      Appender app = tsdb.appender();
      for (int step = 0; step < 500; step++) {
        app.append(
            0,
            Labels.of("__name__", "train_loss", "run", "old"),
            monthAgo + step * 60_000L,
            3.0 - step * 0.001);
      }
      app.append(0, Labels.of("__name__", "DCGM_FI_DEV_GPU_UTIL", "gpu", "0"), NOW - 6 * HOUR, 42);
      app.commit();
      assertThat(count(tsdb, Matcher.equal("__name__", "train_loss"))).isEqualTo(500);

      tsdb.compact();
      assertThat(tsdb.blockMetas())
          .anyMatch(b -> b.maxTime() <= monthAgo + Duration.ofDays(2).toMillis());
      assertThat(tsdb.head().backfillMinTime())
          .as("backfill left the head")
          .isEqualTo(Long.MAX_VALUE);
      assertThat(count(tsdb, Matcher.equal("__name__", "train_loss"))).isEqualTo(500);
      assertThat(dump(tsdb, Matcher.equal("gpu", "0")).get(0))
          .endsWith("@" + (NOW - 6 * HOUR) + "=42.0");
    }
    try (Tsdb reopened = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(count(reopened, Matcher.equal("__name__", "train_loss"))).isEqualTo(500);
    }
  }
}
