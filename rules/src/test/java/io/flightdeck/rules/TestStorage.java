package io.flightdeck.rules;

import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;

/** The embedded TSDB as tests use it: no retention, a clock far ahead so no sample is refused. */
final class TestStorage {
  private static final long FAR_FUTURE_MS = Long.MAX_VALUE / 4;

  private TestStorage() {}

  static Tsdb open(Path dir) {
    try {
      return Tsdb.open(
          TsdbOptions.defaults(dir).withRetention(Duration.ZERO).withClock(() -> FAR_FUTURE_MS));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What {@code flightdeck test rules} will pass to the tester. */
  static RuleUnitTester.StorageFactory factory() {
    return dir -> {
      Tsdb db = open(dir);
      return new RuleUnitTester.Storage(db, db, db);
    };
  }
}
