package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.count;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.testkit.ManualClock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A damaged WAL record costs only itself: every valid record after it is replayed, the segment is
 * copied aside before it is repaired, and the opening problem says how much was lost and where. The
 * log is one series record (ten series) and one samples record of ten samples per commit.
 */
class WalSalvageTest {
  private static final int SERIES = 10;
  private static final int COMMITS = 200;
  private static final int TOTAL = SERIES * COMMITS;

  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  /** Frame offsets of the only segment, and its bytes. */
  private record Segment(Path path, byte[] bytes, List<Integer> frames) {
    int type(int frame) {
      return bytes[frames.get(frame)];
    }
  }

  private Segment writeLog() throws IOException {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      for (int c = 0; c < COMMITS; c++) {
        Appender app = tsdb.appender();
        for (int s = 0; s < SERIES; s++) {
          app.append(
              0,
              Labels.of("__name__", "loss", "rank", Integer.toString(s)),
              NOW - 1_000_000 + c,
              c);
        }
        app.commit();
      }
    }
    Path path;
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      path =
          files
              .filter(p -> p.getFileName().toString().matches("\\d{8}"))
              .filter(p -> p.toFile().length() > 8)
              .findFirst()
              .orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(path);
    List<Integer> frames = new ArrayList<>();
    for (int at = 8; at < bytes.length; at += 9 + ByteBuffer.wrap(bytes, at + 1, 4).getInt()) {
      frames.add(at);
    }
    assertThat(frames)
        .as("one series record, then one samples record per commit")
        .hasSize(COMMITS + 1);
    return new Segment(path, bytes, frames);
  }

  private static void flip(Segment segment, int offset) throws IOException {
    byte[] damaged = Files.readAllBytes(segment.path());
    damaged[offset] ^= 0x5a;
    Files.write(segment.path(), damaged);
  }

  private Path onlyCopy() throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("wal").resolve("damaged"))) {
      List<Path> copies = files.toList();
      assertThat(copies).hasSize(1);
      return copies.get(0);
    }
  }

  @Test
  void aDamagedPayloadLosesOneRecordWhereverItIs() throws Exception {
    Segment intact = writeLog();
    for (int frame : new int[] {1, COMMITS / 2, COMMITS}) {
      Files.write(intact.path(), intact.bytes());
      deleteCopies();
      int offset = intact.frames().get(frame) + 9 + 4 + 3; // inside the first sample entry
      flip(intact, offset);
      byte[] asFound = Files.readAllBytes(intact.path());
      try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
        assertThat(count(tsdb, all)).as("frame %d", frame).isEqualTo(TOTAL - SERIES);
        assertThat(tsdb.openingProblems())
            .singleElement()
            .asString()
            .contains("checksum mismatch at offset " + intact.frames().get(frame))
            .contains("lost 1 record with 10 samples")
            .contains("kept " + COMMITS + " records (" + (COMMITS - frame) + " of them after")
            .contains(intact.path().getFileName().toString());
      }
      assertThat(Files.readAllBytes(onlyCopy()))
          .as("the copy is the segment as found")
          .isEqualTo(asFound);
      try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
        assertThat(tsdb.openingProblems()).as("repaired once").isEmpty();
        assertThat(count(tsdb, all)).isEqualTo(TOTAL - SERIES);
        TsdbTesting.write(tsdb, Labels.of("__name__", "after"), NOW, 1);
      }
      try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
        assertThat(count(tsdb, all)).isEqualTo(TOTAL - SERIES + 1);
      }
      deleteNewSegments(intact);
    }
  }

  @Test
  void aDamagedRecordHeaderLosesOneRecord() throws Exception {
    Segment intact = writeLog();
    // type byte, a length byte, a checksum byte; first samples record, one in the middle
    for (int frame : new int[] {1, COMMITS / 2}) {
      for (int field : new int[] {0, 2, 7}) {
        Files.write(intact.path(), intact.bytes());
        deleteCopies();
        flip(intact, intact.frames().get(frame) + field);
        try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
          assertThat(count(tsdb, all))
              .as("frame %d field %d", frame, field)
              .isEqualTo(TOTAL - SERIES);
          assertThat(tsdb.openingProblems())
              .singleElement()
              .asString()
              .contains("damaged")
              .contains("lost");
        }
        assertThat(Files.exists(dir.resolve("wal").resolve("damaged"))).isTrue();
        deleteNewSegments(intact);
      }
    }
  }

  @Test
  void theLastRecordDamagedIsLostAlone() throws Exception {
    Segment intact = writeLog();
    flip(intact, intact.frames().get(COMMITS) + 9 + 10);
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(count(tsdb, all)).isEqualTo(TOTAL - SERIES);
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains("kept " + COMMITS + " records (0 of them");
    }
    assertThat(Files.size(intact.path()))
        .as("offsets kept: padded, not cut")
        .isEqualTo(intact.bytes().length);
  }

  @Test
  void theSeriesRecordDamagedLosesItsSeriesAndNothingElse() throws Exception {
    Segment intact = writeLog();
    assertThat(intact.type(0)).isEqualTo(1);
    flip(intact, intact.frames().get(0) + 20);
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      // Every sample's series is gone with that record: the samples are found, but unplaceable.
      assertThat(count(tsdb, all)).isZero();
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains("lost 1 record with 0 samples");
    }
  }

  @Test
  void aDamagedSegmentHeaderIsRewrittenAndEveryRecordKept() throws Exception {
    Segment intact = writeLog();
    flip(intact, 1);
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThat(count(tsdb, all)).isEqualTo(TOTAL);
      assertThat(tsdb.openingProblems())
          .singleElement()
          .asString()
          .contains("wrong segment header");
    }
    assertThat(Files.readAllBytes(intact.path())).isEqualTo(intact.bytes());
    assertThat(Files.readAllBytes(onlyCopy())[1]).isEqualTo((byte) (intact.bytes()[1] ^ 0x5a));
  }

  /**
   * Sixteen flipped bytes at seeded random offsets, 40 times: exactly the samples of the records
   * the damage touches are lost (all of them when it touches the series record), never more.
   */
  @Test
  void randomDamageLosesExactlyTheTouchedRecords() throws Exception {
    Segment intact = writeLog();
    Random random = new Random(25);
    long recovered = 0;
    for (int trial = 0; trial < 40; trial++) {
      Files.write(intact.path(), intact.bytes());
      deleteCopies();
      int start = 8 + random.nextInt(intact.bytes().length - 8 - 16);
      byte[] damaged = intact.bytes().clone();
      for (int i = start; i < start + 16; i++) {
        damaged[i] ^= (byte) (1 + random.nextInt(255));
      }
      Files.write(intact.path(), damaged);
      int touched = 0;
      boolean seriesLost = false;
      for (int f = 0; f < intact.frames().size(); f++) {
        int from = intact.frames().get(f);
        int to =
            f + 1 < intact.frames().size() ? intact.frames().get(f + 1) : intact.bytes().length;
        if (from < start + 16 && start < to) {
          touched++;
          seriesLost |= f == 0;
        }
      }
      int expected = seriesLost ? 0 : TOTAL - SERIES * touched;
      try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
        long kept = count(tsdb, all);
        assertThat(kept).as("trial %d at offset %d", trial, start).isEqualTo(expected);
        recovered += kept;
      }
      deleteNewSegments(intact);
    }
    System.out.printf(
        "WAL salvage: 40 damages of 16 bytes, %d of %d samples recovered (%.2f%%)%n",
        recovered, 40L * TOTAL, 100.0 * recovered / (40L * TOTAL));
  }

  private void deleteCopies() throws IOException {
    Path copies = dir.resolve("wal").resolve("damaged");
    if (Files.exists(copies)) {
      try (Stream<Path> files = Files.list(copies)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
    }
  }

  /** Opening starts a fresh segment; removes those so that the next trial reads the same log. */
  private void deleteNewSegments(Segment intact) throws IOException {
    try (Stream<Path> files = Files.list(dir.resolve("wal"))) {
      for (Path p : files.toList()) {
        if (p.getFileName().toString().matches("\\d{8}") && !p.equals(intact.path())) {
          Files.delete(p);
        }
      }
    }
  }
}
