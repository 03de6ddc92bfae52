package io.flightdeck.dashboards;

import java.math.BigDecimal;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Grafana's interval arithmetic ({@code rangeutil.ts}): rounding a raw interval to a "nice" one,
 * writing seconds as {@code 1h}/{@code 30s}/{@code 500ms}, and reading an interval such as {@code
 * 15s}.
 */
public final class GrafanaIntervals {
  private static final Pattern INTERVAL = Pattern.compile("^(\\d+(?:\\.\\d+)?)(ms|[Mwdhmsy])?$");

  /** Upper bounds (exclusive) in ms and the interval each range rounds to. */
  private static final long[][] ROUNDING = {
    {10, 1},
    {15, 10},
    {35, 20},
    {75, 50},
    {150, 100},
    {350, 200},
    {750, 500},
    {1_500, 1_000},
    {3_500, 2_000},
    {7_500, 5_000},
    {12_500, 10_000},
    {17_500, 15_000},
    {25_000, 20_000},
    {45_000, 30_000},
    {90_000, 60_000},
    {210_000, 120_000},
    {450_000, 300_000},
    {750_000, 600_000},
    {1_050_000, 900_000},
    {1_500_000, 1_200_000},
    {2_700_000, 1_800_000},
    {5_400_000, 3_600_000},
    {9_000_000, 7_200_000},
    {16_200_000, 10_800_000},
    {32_400_000, 21_600_000},
    {86_400_000, 43_200_000},
    {604_800_000, 86_400_000},
    {1_814_400_000, 604_800_000},
    {3_628_800_000L, 2_592_000_000L},
  };

  private static final long YEAR_MS = 31_536_000_000L;

  private GrafanaIntervals() {}

  /** The "nice" interval Grafana rounds a raw one (ms) to. */
  public static long roundInterval(double ms) {
    for (long[] step : ROUNDING) {
      if (ms < step[0]) {
        return step[1];
      }
    }
    return YEAR_MS;
  }

  /**
   * Seconds written in the largest whole unit: {@code 1y}, {@code 2d}, {@code 30s}, {@code 500ms}.
   */
  public static String secondsToHms(double seconds) {
    long years = (long) Math.floor(seconds / 31_536_000);
    if (years != 0) {
      return years + "y";
    }
    long days = (long) Math.floor((seconds % 31_536_000) / 86_400);
    if (days != 0) {
      return days + "d";
    }
    long hours = (long) Math.floor((seconds % 86_400) / 3_600);
    if (hours != 0) {
      return hours + "h";
    }
    long minutes = (long) Math.floor((seconds % 3_600) / 60);
    if (minutes != 0) {
      return minutes + "m";
    }
    long wholeSeconds = (long) Math.floor(seconds % 60);
    if (wholeSeconds != 0) {
      return wholeSeconds + "s";
    }
    long ms = (long) Math.floor(seconds * 1000.0);
    if (ms != 0) {
      return ms + "ms";
    }
    return "less than a millisecond";
  }

  /**
   * An interval such as {@code 15s}, {@code 1.5m}, {@code 500ms} or a bare number of seconds, in
   * ms.
   */
  public static double intervalToMs(String text) {
    Matcher m = INTERVAL.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "invalid interval \""
              + text
              + "\": a number followed by one of the units y, M, w, d, h, m, s, ms");
    }
    double amount = Double.parseDouble(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    double unitMs =
        switch (unit) {
          case "y" -> 31_536_000_000d;
          case "M" -> 2_592_000_000d;
          case "w" -> 604_800_000d;
          case "d" -> 86_400_000d;
          case "h" -> 3_600_000d;
          case "m" -> 60_000d;
          case "s" -> 1_000d;
          default -> 1d;
        };
    return amount * unitMs;
  }

  public static double intervalToSeconds(String text) {
    return intervalToMs(text) / 1000;
  }

  /** A number as JavaScript writes it: {@code 15}, {@code 0.5}. */
  static String jsNumber(double value) {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      return Long.toString((long) value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }
}
