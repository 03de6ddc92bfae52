package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static io.flightdeck.tsdb.TsdbTesting.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.SampleTooFarInFutureException;
import io.flightdeck.storage.SampleTooOldException;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Samples behind their series' newest one: refused by default, kept within a window if set. */
class OutOfOrderTest {
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Labels loss = Labels.of("__name__", "llm_train_loss");

  @Test
  void refusedAndCountedByDefault() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      write(tsdb, loss, NOW, 1);
      assertThatThrownBy(() -> write(tsdb, loss, NOW - 1000, 2))
          .isInstanceOf(OutOfOrderSampleException.class)
          .hasMessageContaining("llm_train_loss");
      assertThat(tsdb.metrics().rejectedByReason()).containsEntry("out_of_order", 1L);
    }
  }

  @Test
  void acceptedInsideTheWindowInTimeOrderAndAfterRestart() throws Exception {
    var options = TsdbTesting.options(dir, clock).withOutOfOrderWindow(Duration.ofMinutes(10));
    try (Tsdb tsdb = Tsdb.open(options)) {
      write(tsdb, loss, NOW, 1);
      write(tsdb, loss, NOW - 60_000, 2);
      write(tsdb, loss, NOW - 30_000, 3);
      assertThatThrownBy(() -> write(tsdb, loss, NOW - 11 * 60_000, 4))
          .isInstanceOf(OutOfOrderSampleException.class);
      assertThat(dump(tsdb, Matcher.equal("__name__", "llm_train_loss")))
          .containsExactly(
              "llm_train_loss{}@" + (NOW - 60_000) + "=2.0",
              "llm_train_loss{}@" + (NOW - 30_000) + "=3.0",
              "llm_train_loss{}@" + NOW + "=1.0");
    }
    try (Tsdb tsdb = Tsdb.open(options)) {
      assertThat(dump(tsdb, Matcher.equal("__name__", "llm_train_loss"))).hasSize(3);
    }
  }

  /**
   * An appender reads the clock when it starts and again before refusing a sample as too far in the
   * future: one kept open while time passes takes what is no longer ahead.
   */
  @Test
  void aLongOpenAppenderJudgesTheFutureByTheClockAsItIsNow() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      Appender app = tsdb.appender();
      app.append(0, loss, NOW, 1);
      clock.advance(Duration.ofMinutes(30));
      long later = NOW + Duration.ofMinutes(30).toMillis();

      app.append(0, loss, later, 2);
      assertThatThrownBy(() -> app.append(0, loss, later + Duration.ofMinutes(11).toMillis(), 3))
          .isInstanceOf(SampleTooFarInFutureException.class)
          .hasMessageContaining("now=" + later);
      app.commit();
      assertThat(dump(tsdb, Matcher.equal("__name__", "llm_train_loss")))
          .containsExactly(
              "llm_train_loss{}@" + NOW + "=1.0", "llm_train_loss{}@" + later + "=2.0");
    }
  }

  @Test
  void samplesTooFarInTheFutureOrPastRetentionAreRefused() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, clock))) {
      assertThatThrownBy(() -> write(tsdb, loss, NOW + Duration.ofMinutes(11).toMillis(), 1))
          .isInstanceOf(SampleTooFarInFutureException.class);
      assertThatThrownBy(() -> write(tsdb, loss, NOW - Duration.ofDays(31).toMillis(), 1))
          .isInstanceOf(SampleTooOldException.class);
      assertThat(tsdb.metrics().rejectedByReason())
          .containsEntry("too_far_in_future", 1L)
          .containsEntry("too_old", 1L);
    }
  }
}
