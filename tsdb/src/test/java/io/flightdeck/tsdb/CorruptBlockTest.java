package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.count;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.block.BlockMeta;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A damaged block is moved to corrupted/ with a clear message; the rest is served. */
class CorruptBlockTest {
  static final long HOUR = 3_600_000;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  @ParameterizedTest
  @ValueSource(
      strings = {"index-flip", "index-truncate", "meta-garbage", "meta-missing", "chunks-header"})
  void theDamagedBlockIsMovedAsideAndTheDatabaseStarts(String damage) throws Exception {
    long totalBefore;
    BlockMeta victim;
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      CompactionTest.scrape(tsdb, NOW - 9 * HOUR, NOW);
      tsdb.compact();
      List<BlockMeta> blocks = tsdb.blockMetas();
      assertThat(blocks.size()).isGreaterThanOrEqualTo(2);
      victim = blocks.get(0);
      totalBefore = count(tsdb, all);
    }
    Path block = dir.resolve(victim.ulid());
    switch (damage) {
      case "index-flip" -> flipByte(block.resolve("index"), Files.size(block.resolve("index")) / 2);
      case "index-truncate" -> truncate(block.resolve("index"), 100);
      case "meta-garbage" -> Files.writeString(block.resolve("meta.json"), "{not json");
      case "meta-missing" -> Files.delete(block.resolve("meta.json"));
      case "chunks-header" -> flipByte(block.resolve("chunks").resolve("000001"), 1);
      default -> throw new IllegalArgumentException(damage);
    }
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(tsdb.blockMetas()).noneMatch(b -> b.ulid().equals(victim.ulid()));
      assertThat(Files.isDirectory(dir.resolve("corrupted").resolve(victim.ulid()))).isTrue();
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains(victim.ulid())
          .contains("moved aside");
      assertThat(tsdb.metrics().blocksMovedAside.sum()).isEqualTo(1);
      assertThat(count(tsdb, all)).isEqualTo(totalBefore - victim.numSamples());
    }
  }

  private static void flipByte(Path file, long at) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.seek(at);
      int b = f.read();
      f.seek(at);
      f.write(b ^ 0xff);
    }
  }

  private static void truncate(Path file, long length) throws Exception {
    try (RandomAccessFile f = new RandomAccessFile(file.toFile(), "rw")) {
      f.setLength(length);
    }
  }
}
