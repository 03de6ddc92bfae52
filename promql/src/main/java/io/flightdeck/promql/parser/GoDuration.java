package io.flightdeck.promql.parser;

import io.flightdeck.model.DurationFormat;
import java.time.Duration;

/**
 * Durations as Prometheus reads and prints them ({@code model.ParseDuration}, {@code
 * model.Duration.String()}): units y w d h m s ms, biggest first; printed to the millisecond, with
 * years and weeks only when they divide evenly.
 */
final class GoDuration {
  private static final String[] UNITS = {"y", "w", "d", "h", "m", "s", "ms"};
  private static final long[] UNIT_NANOS = {
    365L * 24 * 3600 * 1_000_000_000L,
    7L * 24 * 3600 * 1_000_000_000L,
    24L * 3600 * 1_000_000_000L,
    3600L * 1_000_000_000L,
    60L * 1_000_000_000L,
    1_000_000_000L,
    1_000_000L
  };

  private GoDuration() {}

  /** Thrown with Prometheus's message for a malformed duration. */
  static final class DurationSyntaxException extends Exception {
    DurationSyntaxException(String message) {
      super(message);
    }
  }

  static Duration parse(String s) throws DurationSyntaxException {
    if (s.equals("0")) {
      return Duration.ZERO;
    }
    if (s.isEmpty()) {
      throw new DurationSyntaxException("empty duration string");
    }
    long total = 0;
    int lastUnit = -1;
    int i = 0;
    while (i < s.length()) {
      int numberStart = i;
      while (i < s.length() && isDigit(s.charAt(i))) {
        i++;
      }
      if (i == numberStart) {
        throw invalid(s);
      }
      long value;
      try {
        value = Long.parseUnsignedLong(s.substring(numberStart, i));
      } catch (NumberFormatException e) {
        throw invalid(s);
      }
      int unitStart = i;
      while (i < s.length() && !isDigit(s.charAt(i))) {
        i++;
      }
      if (i == unitStart) {
        throw invalid(s);
      }
      String unitText = s.substring(unitStart, i);
      int unit = indexOfUnit(unitText);
      if (unit < 0) {
        throw new DurationSyntaxException(
            "unknown unit " + GoText.quote(unitText) + " in duration " + GoText.quote(s));
      }
      if (unit <= lastUnit) {
        throw invalid(s); // units must go from biggest to smallest
      }
      lastUnit = unit;
      if (Long.compareUnsigned(value, Long.MIN_VALUE / -UNIT_NANOS[unit]) > 0) {
        throw new DurationSyntaxException("duration out of range");
      }
      long sum = total + value * UNIT_NANOS[unit];
      if (sum < 0) {
        throw new DurationSyntaxException("duration out of range");
      }
      total = sum;
    }
    return Duration.ofNanos(total);
  }

  private static DurationSyntaxException invalid(String s) {
    return new DurationSyntaxException("not a valid duration string: " + GoText.quote(s));
  }

  private static int indexOfUnit(String unit) {
    for (int i = 0; i < UNITS.length; i++) {
      if (UNITS[i].equals(unit)) {
        return i;
      }
    }
    return -1;
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** Go's {@code Duration.Seconds()}: whole seconds plus the fraction, as a float. */
  static double seconds(Duration d) {
    long nanos = d.toNanos();
    return (double) (nanos / 1_000_000_000L) + (double) (nanos % 1_000_000_000L) / 1e9;
  }

  /** Seconds as a duration, rounded to the nanosecond (halves away from zero). */
  static Duration ofSeconds(double seconds) {
    return Duration.ofNanos(GoNumbers.toInt64(GoNumbers.round(seconds * 1e9)));
  }

  static String format(Duration d) {
    return DurationFormat.format(d);
  }
}
