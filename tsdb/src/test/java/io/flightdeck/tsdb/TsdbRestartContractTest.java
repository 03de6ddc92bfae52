package io.flightdeck.tsdb;

import io.flightdeck.storage.StorageContractTest;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/** The storage contract across a restart: everything read back comes from WAL replay. */
class TsdbRestartContractTest extends StorageContractTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(TsdbTesting.NOW);

  @Override
  protected Store open() throws Exception {
    return TsdbTesting.asStore(Tsdb.open(TsdbTesting.options(dir, clock)));
  }

  @Override
  protected Store afterWrites(Store written) throws Exception {
    written.close();
    return open();
  }

  @Override
  protected long baseTime() {
    return TsdbTesting.NOW - 60_000;
  }
}
