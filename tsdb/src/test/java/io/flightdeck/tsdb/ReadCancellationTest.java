package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.ReadCancellation;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index's loops over many label values call the request's check, so a request past its time or
 * abandoned by its client stops there; without a check they run to the end.
 */
class ReadCancellationTest {
  private static final int SERIES = 3_000;
  @TempDir Path dir;

  @Test
  void labelLookupsOverManySeriesStopAtTheRequestsCheck() throws Exception {
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(dir, new ManualClock(NOW)))) {
      Appender app = tsdb.appender();
      for (int i = 0; i < SERIES; i++) {
        app.append(0, Labels.of("__name__", "m", "i", "v" + i), NOW, i);
      }
      app.commit();
      Matcher regex = Matcher.regex("i", "v.*1");
      try (Querier querier = tsdb.querier(NOW - 1000, NOW + 1000)) {
        // Without a check: every value.
        assertThat(querier.labelValues("i")).hasSize(SERIES);
        assertThat(querier.labelValues("i", regex)).hasSize(SERIES / 10);

        for (Function<Querier, Object> lookup :
            java.util.List.<Function<Querier, Object>>of(
                q -> q.labelValues("i"),
                q -> q.labelValues("i", regex),
                q -> q.labelNames(Matcher.notRegex("i", "v1.*")),
                q -> q.select(false, Matcher.equal("__name__", "m")))) {
          AtomicInteger checks = new AtomicInteger();
          assertThatThrownBy(
                  () ->
                      ReadCancellation.during(
                          () -> {
                            if (checks.incrementAndGet() == 2) {
                              throw new IllegalStateException("request canceled");
                            }
                          },
                          () -> lookup.apply(querier)))
              .hasMessage("request canceled");
        }
        // The check is the request's only: the thread runs its loops to the end again.
        assertThat(querier.labelValues("i", regex)).hasSize(SERIES / 10);
      }
    }
  }
}
