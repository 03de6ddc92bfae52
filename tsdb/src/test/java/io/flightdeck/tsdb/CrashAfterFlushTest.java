package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash after head data went to a block but before the WAL checkpoint: a child process does the
 * flush and is killed with SIGKILL while the database is open. Replay must not bring the flushed
 * samples back into the head (they would be written to blocks a second time), and must keep the
 * samples logged after the block writer's snapshot.
 */
class CrashAfterFlushTest {
  static final long HOUR = CrashAfterFlushChild.HOUR;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  @Test
  void replayAfterAKillSkipsWhatTheBlocksHoldAndKeepsTheRest() throws Exception {
    Path data = dir.resolve("data");
    int blocksAfterFlush = killChildAfterFlush(data);
    List<String> expected = Files.readAllLines(dir.resolve("expected.txt"));
    assertThat(expected).hasSize(20 * 6 * 240 + 1);

    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(data, clock))) {
      assertThat(tsdb.blockMetas()).hasSize(blocksAfterFlush);
      assertThat(tsdb.head().minTime())
          .as("only the late sample is below the blocks' end in the head")
          .isEqualTo(NOW - 5 * HOUR);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);

      long inBlocks = tsdb.blockMetas().stream().mapToLong(b -> b.numSamples()).sum();
      assertThat(inBlocks + headSamples(tsdb))
          .as("every sample is stored once: in a block or in the head, never both")
          .isEqualTo(expected.size());

      tsdb.compact();
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      long inBlocksAfter = tsdb.blockMetas().stream().mapToLong(b -> b.numSamples()).sum();
      assertThat(inBlocksAfter + headSamples(tsdb)).isEqualTo(expected.size());
    }
  }

  /** Runs {@link CrashAfterFlushChild} on {@code data}, kills it once ready; its block count. */
  private static int killChildAfterFlush(Path data) throws Exception {
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                CrashAfterFlushChild.class.getName(),
                data.toString())
            .redirectErrorStream(true)
            .start();
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      StringBuilder log = new StringBuilder();
      for (String line; (line = out.readLine()) != null; ) {
        if (line.startsWith("ready ")) {
          child.destroyForcibly(); // SIGKILL: no close, no checkpoint, no shutdown hook
          assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
          int blocks = Integer.parseInt(line.substring("ready ".length()));
          assertThat(blocks).isPositive();
          return blocks;
        }
        log.append(line).append('\n');
      }
      throw new AssertionError("the child exited before its flush:\n" + log);
    } finally {
      child.destroyForcibly();
    }
  }

  private static long headSamples(Tsdb tsdb) {
    long n = 0;
    try (Querier q = tsdb.head().querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(false, Matcher.regex("__name__", ".+"));
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          n++;
        }
      }
    }
    return n;
  }
}
