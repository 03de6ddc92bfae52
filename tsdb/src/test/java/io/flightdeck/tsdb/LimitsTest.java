package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.InvalidLabelsException;
import io.flightdeck.storage.SeriesLimitException;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A label explosion is refused with an error naming the metric, and other metrics go on. */
class LimitsTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);

  @Test
  void aTimestampUsedAsALabelHitsThePerMetricCap() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock).withSeriesLimits(10_000, 100))) {
      Appender app = tsdb.appender();
      int accepted = 0;
      SeriesLimitException refused = null;
      for (int i = 0; i < 1000; i++) {
        try {
          app.append(0, Labels.of("__name__", "request_latency", "request_id", "req-" + i), NOW, 1);
          accepted++;
        } catch (SeriesLimitException e) {
          refused = e;
        }
      }
      app.append(0, Labels.of("__name__", "gpu_memory_used_mb", "device", "cuda:0"), NOW, 100);
      app.commit();
      assertThat(accepted).isEqualTo(100);
      assertThat(refused).isNotNull();
      assertThat(refused.getMessage()).contains("metric=request_latency").contains("limit=100");
      assertThat(tsdb.metrics().rejectedByReason()).containsEntry("series_limit", 900L);
      assertThat(
              TsdbTesting.count(
                  tsdb, io.flightdeck.model.Matcher.equal("__name__", "gpu_memory_used_mb")))
          .isEqualTo(1);
    }
  }

  @Test
  void theOverallCapHolds() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock).withSeriesLimits(50, 0))) {
      for (int i = 0; i < 50; i++) {
        write(tsdb, Labels.of("__name__", "m" + i), NOW, 1);
      }
      assertThatThrownBy(() -> write(tsdb, Labels.of("__name__", "one_too_many"), NOW, 1))
          .isInstanceOf(SeriesLimitException.class)
          .hasMessageContaining("metric=one_too_many");
      assertThat(tsdb.head().numSeries()).isEqualTo(50);
    }
  }

  @Test
  void labelRulesAreEnforced() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock).withLabelLimits(16, 32, 3))) {
      assertThatThrownBy(() -> write(tsdb, Labels.of("job", "x"), NOW, 1))
          .isInstanceOf(InvalidLabelsException.class)
          .hasMessageContaining("no metric name");
      assertThatThrownBy(
              () -> write(tsdb, Labels.of("__name__", "m", "a_very_long_label_name", "x"), NOW, 1))
          .isInstanceOf(InvalidLabelsException.class)
          .hasMessageContaining("label name too long");
      assertThatThrownBy(() -> write(tsdb, Labels.of("__name__", "m", "v", "x".repeat(33)), NOW, 1))
          .isInstanceOf(InvalidLabelsException.class)
          .hasMessageContaining("label value too long")
          .hasMessageContaining("metric=m");
      assertThatThrownBy(
              () -> write(tsdb, Labels.of("__name__", "m", "a", "1", "b", "2", "c", "3"), NOW, 1))
          .isInstanceOf(InvalidLabelsException.class)
          .hasMessageContaining("too many labels");
      assertThat(tsdb.head().numSeries()).isZero();
    }
  }
}
