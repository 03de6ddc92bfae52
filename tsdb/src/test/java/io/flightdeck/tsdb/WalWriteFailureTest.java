package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.count;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A WAL segment that cannot be started (here a directory stands where the next segment goes, as an
 * I/O error would) refuses commits with a 503-kind error that is counted, and once the obstacle is
 * gone writing resumes in the very next segment, so that replay finds every acknowledged sample.
 */
class WalWriteFailureTest {
  private static final long NOW = 1_700_000_000_000L;
  @TempDir Path dir;

  private TsdbOptions options() {
    TsdbOptions o = TsdbOptions.defaults(dir).withClock(new ManualClock(NOW));
    return new TsdbOptions(
        o.path(),
        o.retention(),
        o.retentionBytes(),
        o.blockRange(),
        o.outOfOrderWindow(),
        o.futureTolerance(),
        o.maxLabelNameLength(),
        o.maxLabelValueLength(),
        o.maxLabelsPerSeries(),
        o.maxSeries(),
        o.maxSeriesPerMetric(),
        4096,
        o.compactionInterval(),
        o.clock());
  }

  private static void commit(Tsdb tsdb, int batch) {
    Appender app = tsdb.appender();
    for (int i = 0; i < 20; i++) {
      app.append(0, Labels.of("__name__", "m", "i", Integer.toString(i)), NOW + batch * 1000L, i);
    }
    app.commit();
  }

  @Test
  void aSegmentThatCannotBeStartedIsCountedAndWritingResumesInTheNextSegment() throws Exception {
    Matcher all = Matcher.equal("__name__", "m");
    Path blocker = dir.resolve("wal").resolve("00000001");
    int acknowledged = 0;
    try (Tsdb tsdb = Tsdb.open(options())) {
      Files.createDirectories(blocker);
      int batch = 0;
      StorageUnavailableException failure = null;
      for (; batch < 1_000 && failure == null; batch++) {
        try {
          commit(tsdb, batch);
          acknowledged++;
        } catch (StorageUnavailableException e) {
          failure = e;
        }
      }
      assertThat(failure).isNotNull();
      assertThat(failure.getMessage()).contains("starting a new WAL segment failed");
      for (int i = 0; i < 5; i++) {
        int next = batch++;
        assertThatThrownBy(() -> commit(tsdb, next))
            .isInstanceOf(StorageUnavailableException.class);
      }
      assertThat(tsdb.metrics().walWriteFailures.sum()).isEqualTo(6);
      assertThat(count(tsdb, all)).isEqualTo(acknowledged * 20L);

      Files.delete(blocker);
      commit(tsdb, batch++);
      commit(tsdb, batch);
      acknowledged += 2;
    }
    try (Stream<Path> segments = Files.list(dir.resolve("wal"))) {
      assertThat(segments.map(p -> p.getFileName().toString()).sorted().toList())
          .startsWith("00000000", "00000001");
    }
    try (Tsdb reopened = Tsdb.open(options())) {
      assertThat(count(reopened, all)).isEqualTo(acknowledged * 20L);
    }
  }
}
