package io.flightdeck.tsdb;

/** The storage contract across a restart: everything read back comes from WAL replay. */
class TsdbRestartContractTest extends TsdbContractTest {
  @Override
  protected Store afterWrites(Store written) throws Exception {
    written.close();
    return open();
  }
}
