package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import org.junit.jupiter.api.Test;

class LogfmtLayoutTest {
  private static final DateTimeFormatter ISO_MILLIS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSX").withZone(ZoneOffset.UTC);

  /** Every instant from 1970 to 2200, whole seconds included, as the pattern layout wrote it. */
  @Test
  void timestampsAreUtcWithMilliseconds() {
    Property.tries(2000)
        .check(
            in -> {
              long epochMillis = in.draw("epochMillis", Generators.longs(0, 7_258_118_400_000L));
              StringBuilder out = new StringBuilder();
              LogfmtLayout.appendUtc(out, epochMillis);
              assertThat(out.toString())
                  .isEqualTo(ISO_MILLIS.format(Instant.ofEpochMilli(epochMillis)));
            });
  }

  @Test
  void wholeSecondsKeepTheirMilliseconds() {
    StringBuilder out = new StringBuilder();
    LogfmtLayout.appendUtc(out, 1_796_083_200_000L);
    assertThat(out).hasToString("2026-12-01T00:00:00.000Z");
  }

  @Test
  void anExceptionsStackTraceFollowsItsLine() {
    LoggerContext context = new LoggerContext();
    LogfmtLayout layout = new LogfmtLayout();
    layout.setContext(context);
    layout.start();
    LoggingEvent event =
        new LoggingEvent(
            "io.flightdeck.Test",
            context.getLogger("io.flightdeck.tsdb.BlockSet"),
            Level.ERROR,
            "block {} is damaged",
            new IllegalStateException("bad magic", new RuntimeException("root cause")),
            new Object[] {"01ABC"});
    String[] lines = layout.doLayout(event).split("\n");
    assertThat(lines[0])
        .matches("ts=\\S+ level=ERROR thread=\\S+ logger=BlockSet msg=\"block 01ABC is damaged\"");
    assertThat(lines[1]).isEqualTo("java.lang.IllegalStateException: bad magic");
    assertThat(lines[2]).startsWith("\tat io.flightdeck.app.LogfmtLayoutTest.");
    assertThat(lines).anyMatch(l -> l.equals("Caused by: java.lang.RuntimeException: root cause"));
  }
}
