package io.flightdeck.tsdb;

import io.flightdeck.storage.StorageContractTest;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract on a fresh database, read from the head. */
class TsdbContractTest extends StorageContractTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(TsdbTesting.NOW);

  @Override
  protected Store open() throws Exception {
    return TsdbTesting.asStore(Tsdb.open(TsdbTesting.options(dir, clock)));
  }

  @Override
  protected long baseTime() {
    return TsdbTesting.NOW - 60_000;
  }
}
