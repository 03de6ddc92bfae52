package io.flightdeck.model;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Prometheus's duration notation: one or more of {@code y w d h m s ms} in descending order, such
 * as {@code 15d}, {@code 1h30m} or {@code 500ms} (a year is 365 days, a week 7 days).
 */
public final class DurationFormat {
  private static final Pattern PART = Pattern.compile("(\\d+)(ms|y|w|d|h|m|s)");
  private static final String ORDER = "y w d h m s ms";

  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};
  private static final long[] UNIT_MILLIS = {
    365L * 24 * 3600 * 1000,
    7L * 24 * 3600 * 1000,
    24L * 3600 * 1000,
    3600L * 1000,
    60L * 1000,
    1000L,
    1L
  };

  private DurationFormat() {}

  /**
   * Prometheus's {@code model.Duration.String()}: biggest unit first, to the millisecond, years and
   * weeks only when they divide evenly ({@code 90d} reads better than {@code 12w6d}).
   */
  public static String format(Duration d) {
    long ms = d.toNanos() / 1_000_000L;
    if (ms == 0) {
      return "0s";
    }
    StringBuilder sb = new StringBuilder();
    if (ms < 0) {
      sb.append('-');
      ms = -ms;
    }
    for (int i = 0; i < UNITS.length; i++) {
      long mult = UNIT_MILLIS[i];
      if (i < 2 && ms % mult != 0) {
        continue;
      }
      long v = ms / mult;
      if (v > 0) {
        sb.append(v).append(UNITS[i]);
        ms -= v * mult;
      }
    }
    return sb.toString();
  }

  public static Duration parse(String text) {
    try {
      return parseChecked(text);
    } catch (ArithmeticException | NumberFormatException e) {
      throw new IllegalArgumentException(
          "not a valid duration string: \"" + text + "\" (out of range)");
    }
  }

  private static Duration parseChecked(String text) {
    if (text == null || text.isEmpty()) {
      throw new IllegalArgumentException("empty duration string");
    }
    if (text.equals("0")) {
      return Duration.ZERO;
    }
    Matcher m = PART.matcher(text);
    int position = 0;
    int lastUnit = -1;
    long millis = 0;
    while (position < text.length()) {
      if (!m.find(position) || m.start() != position) {
        throw new IllegalArgumentException("not a valid duration string: \"" + text + "\"");
      }
      int unit = java.util.Arrays.asList(ORDER.split(" ")).indexOf(m.group(2));
      if (unit <= lastUnit) {
        throw new IllegalArgumentException("not a valid duration string: \"" + text + "\"");
      }
      lastUnit = unit;
      long n = Long.parseLong(m.group(1));
      millis =
          Math.addExact(
              millis,
              Math.multiplyExact(
                  n,
                  switch (m.group(2)) {
                    case "y" -> 365L * 24 * 3600 * 1000;
                    case "w" -> 7L * 24 * 3600 * 1000;
                    case "d" -> 24L * 3600 * 1000;
                    case "h" -> 3600L * 1000;
                    case "m" -> 60L * 1000;
                    case "s" -> 1000L;
                    default -> 1L;
                  }));
      position = m.end();
    }
    return Duration.ofMillis(millis);
  }
}
