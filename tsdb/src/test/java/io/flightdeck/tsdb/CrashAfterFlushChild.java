package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The process {@link CrashAfterFlushTest} kills: writes six hours, cuts blocks from the head
 * without the checkpoint that normally follows, writes a late sample into the flushed range, saves
 * what a query returns to {@code expected.txt} and prints {@code ready}; then waits to be killed.
 */
final class CrashAfterFlushChild {
  static final long HOUR = 3_600_000;

  private CrashAfterFlushChild() {}

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, new ManualClock(NOW)));
    CompactionTest.scrape(tsdb, NOW - 6 * HOUR, NOW);
    if (!tsdb.flushHead()) {
      throw new IllegalStateException("nothing was flushed");
    }
    // A lagging series still writes into the flushed range after the block was cut.
    TsdbTesting.write(tsdb, Labels.of("__name__", "late", "gpu", "9"), NOW - 5 * HOUR, 7);
    Files.write(
        dir.resolveSibling("expected.txt"),
        TsdbTesting.dump(tsdb, Matcher.regex("__name__", ".+")));
    System.out.println("ready " + tsdb.blockMetas().size());
    System.out.flush();
    Thread.sleep(Long.MAX_VALUE); // killed here, with the database open
  }
}
