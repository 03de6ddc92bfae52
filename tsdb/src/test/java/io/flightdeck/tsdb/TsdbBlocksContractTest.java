package io.flightdeck.tsdb;

import io.flightdeck.storage.StorageContractTest;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

/**
 * The storage contract read from blocks: after the writes, the head is written out by a snapshot
 * and the snapshot directory is opened as a database of its own, so every sample comes from disk.
 */
class TsdbBlocksContractTest extends StorageContractTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(TsdbTesting.NOW);
  private Tsdb current;

  @Override
  protected Store open() throws Exception {
    current = Tsdb.open(TsdbTesting.options(dir.resolve("live"), clock));
    return TsdbTesting.asStore(current);
  }

  @Override
  protected Store afterWrites(Store written) throws Exception {
    String name = current.snapshot();
    written.close();
    Path snapshot = dir.resolve("live").resolve("snapshots").resolve(name);
    current = Tsdb.open(TsdbTesting.options(snapshot, clock));
    org.assertj.core.api.Assertions.assertThat(current.head().numSeries())
        .as("everything is read from blocks")
        .isZero();
    return TsdbTesting.asStore(current);
  }

  @Override
  protected long baseTime() {
    return TsdbTesting.NOW - 60_000;
  }
}
