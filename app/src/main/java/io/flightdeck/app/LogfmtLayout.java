package io.flightdeck.app;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxyUtil;
import ch.qos.logback.core.CoreConstants;
import ch.qos.logback.core.LayoutBase;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Every command's log line, logfmt-style: {@code ts=2026-12-02T00:44:53.038Z level=INFO thread=main
 * logger=Tsdb msg="..."}, then an exception's stack trace, if any, on the lines after. Written out
 * rather than as a logback pattern: setting up the pattern layout (its converter table, its date
 * formatter) took 40 ms of CPU at each start, beside the command line's parse.
 */
final class LogfmtLayout extends LayoutBase<ILoggingEvent> {
  @Override
  public String doLayout(ILoggingEvent event) {
    StringBuilder line = new StringBuilder(160);
    line.append("ts=");
    appendUtc(line, event.getTimeStamp());
    line.append(" level=").append(event.getLevel());
    line.append(" thread=").append(event.getThreadName());
    String logger = event.getLoggerName();
    line.append(" logger=").append(logger, logger.lastIndexOf('.') + 1, logger.length());
    line.append(" msg=\"").append(event.getFormattedMessage()).append('"');
    line.append(CoreConstants.LINE_SEPARATOR);
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown != null) {
      line.append(ThrowableProxyUtil.asString(thrown)).append(CoreConstants.LINE_SEPARATOR);
    }
    return line.toString();
  }

  /** {@code epochMillis} as {@code yyyy-MM-ddTHH:mm:ss.SSSZ} in UTC. */
  static void appendUtc(StringBuilder out, long epochMillis) {
    LocalDateTime t =
        LocalDateTime.ofEpochSecond(Math.floorDiv(epochMillis, 1000), 0, ZoneOffset.UTC);
    padded(out, t.getYear(), 4).append('-');
    padded(out, t.getMonthValue(), 2).append('-');
    padded(out, t.getDayOfMonth(), 2).append('T');
    padded(out, t.getHour(), 2).append(':');
    padded(out, t.getMinute(), 2).append(':');
    padded(out, t.getSecond(), 2).append('.');
    padded(out, (int) Math.floorMod(epochMillis, 1000), 3).append('Z');
  }

  private static StringBuilder padded(StringBuilder out, int value, int digits) {
    String text = Integer.toString(value);
    for (int i = text.length(); i < digits; i++) {
      out.append('0');
    }
    return out.append(text);
  }
}
