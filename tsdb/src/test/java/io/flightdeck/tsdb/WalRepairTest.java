package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static io.flightdeck.tsdb.TsdbTesting.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damaged WAL segments: a torn tail is cut at the last good record, a damaged record in the middle
 * costs only itself (WalSalvageTest has the details); the database starts with the rest.
 */
class WalRepairTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  private void writeSamples(int count) throws IOException {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      for (int i = 0; i < count; i++) {
        write(tsdb, Labels.of("__name__", "m", "i", Integer.toString(i % 3)), NOW - 100_000 + i, i);
      }
    }
  }

  private Path onlySegment() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      List<Path> segments =
          files
              .filter(p -> p.getFileName().toString().matches("\\d{8}"))
              .filter(p -> p.toFile().length() > 8)
              .toList();
      assertThat(segments).hasSize(1);
      return segments.get(0);
    }
  }

  @Test
  void aTornTailIsCutAndEverythingBeforeItKept() throws Exception {
    writeSamples(30);
    Path segment = onlySegment();
    long size = Files.size(segment);
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.setLength(size - 5); // the last record loses its end, as in a crash mid-write
    }
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(tsdb, all)).hasSize(29);
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains("torn record")
          .contains(segment.getFileName().toString());
      write(tsdb, Labels.of("__name__", "after"), NOW, 1);
    }
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(tsdb, all)).as("the repaired log takes new records").hasSize(30);
      assertThat(tsdb.openingProblems()).isEmpty();
    }
  }

  /** Found by fuzzing: a crash a few bytes into a record's header left nothing to read on. */
  @Test
  void aTailTornInsideARecordHeaderIsCut() throws Exception {
    writeSamples(30);
    Path segment = onlySegment();
    Files.write(segment, new byte[] {2, 0, 0}, StandardOpenOption.APPEND);
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(tsdb, all)).hasSize(30);
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains("torn record at offset")
          .contains("3 bytes) cut");
    }
  }

  @Test
  void aCorruptRecordInTheMiddleCostsOnlyItself() throws Exception {
    writeSamples(30);
    Path segment = onlySegment();
    long size = Files.size(segment);
    try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw")) {
      file.seek(size / 2);
      int b = file.read();
      file.seek(size / 2);
      file.write(b ^ 0x5a);
    }
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(tsdb, all)).hasSize(29);
      assertThat(tsdb.openingProblems()).singleElement().asString().contains("checksum mismatch");
      assertThat(tsdb.metrics().walCorruptions.sum()).isEqualTo(1);
    }
  }

  @Test
  void aGarbageSegmentIsDroppedWithAWarning() throws Exception {
    writeSamples(5);
    Files.write(dir.resolve("wal").resolve("00000099"), "not a wal segment at all".getBytes());
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(dump(tsdb, all)).hasSize(5);
      assertThat(tsdb.openingProblems()).singleElement().asString().contains("00000099");
    }
  }
}
