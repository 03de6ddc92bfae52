package io.flightdeck.tsdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.storage.StorageUnavailableException;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class FailureLogTest {
  private final List<String> lines = new ArrayList<>();
  private final AtomicLong now = new AtomicLong(1_700_000_000_000L);
  private final FailureLog log =
      new FailureLog("writing the WAL", lines::add, Duration.ofMinutes(1), now::get, 2);

  private static StorageUnavailableException diskFull(String segment) {
    return new StorageUnavailableException(
        "writing failed [segment=" + segment + "]", new IOException("No space left on device"));
  }

  @Test
  void eachCauseIsLoggedOnceThenSummarizedWithItsCountPerInterval() {
    for (int i = 0; i < 1_000; i++) {
      log.record(diskFull("7"));
    }
    assertThat(lines)
        .containsExactly(
            "writing the WAL failed: StorageUnavailableException: writing failed [segment=7]"
                + " (IOException: No space left on device) (repeats of this cause are counted and"
                + " logged at most every 60 s)");

    now.addAndGet(60_000);
    log.record(diskFull("7"));
    log.record(diskFull("7"));
    assertThat(lines).hasSize(2);
    assertThat(lines.get(1))
        .isEqualTo(
            "writing the WAL failed: 1000 more of the same since 2023-11-14T22:13:20Z:"
                + " StorageUnavailableException: writing failed [segment=7]"
                + " (IOException: No space left on device)");
  }

  @Test
  void causesAreBoundedAndAnEvictedCauseLogsWhatItCounted() {
    log.record(diskFull("1"));
    log.record(diskFull("1"));
    log.record(diskFull("2"));
    log.record(diskFull("3")); // evicts cause 1, which had one unlogged repeat
    assertThat(lines).hasSize(4);
    assertThat(lines.get(2)).contains("1 more of the same since").contains("segment=1");
    assertThat(lines.get(3)).contains("segment=3").contains("repeats of this cause");
    log.record(diskFull("1")); // a new cause again, logged in full (evicting 2, which had none)
    assertThat(lines).hasSize(5);
    assertThat(lines.get(4)).contains("segment=1").contains("repeats of this cause");
  }
}
