package io.flightdeck.rules;

import java.time.Instant;

/** Prometheus's humanize template functions: SI and binary prefixes, durations, percentages. */
final class Humanize {
  private static final String[] BIG = {"k", "M", "G", "T", "P", "E", "Z", "Y"};
  private static final String[] SMALL = {"m", "u", "n", "p", "f", "a", "z", "y"};
  private static final String[] BINARY = {"ki", "Mi", "Gi", "Ti", "Pi", "Ei", "Zi", "Yi"};

  private Humanize() {}

  static String si(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) {
      return GoFormat.g(v, 4);
    }
    String prefix = "";
    if (Math.abs(v) >= 1) {
      for (String p : BIG) {
        if (Math.abs(v) < 1000) {
          break;
        }
        prefix = p;
        v /= 1000;
      }
    } else {
      for (String p : SMALL) {
        if (Math.abs(v) >= 1) {
          break;
        }
        prefix = p;
        v *= 1000;
      }
    }
    return GoFormat.g(v, 4) + prefix;
  }

  static String binary(double v) {
    if (Math.abs(v) <= 1 || Double.isNaN(v) || Double.isInfinite(v)) {
      return GoFormat.g(v, 4);
    }
    String prefix = "";
    for (String p : BINARY) {
      if (Math.abs(v) < 1024) {
        break;
      }
      prefix = p;
      v /= 1024;
    }
    return GoFormat.g(v, 4) + prefix;
  }

  static String duration(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return GoFormat.g(v, 4);
    }
    if (v == 0) {
      return GoFormat.g(v, 4) + "s";
    }
    if (Math.abs(v) >= 1) {
      String sign = v < 0 ? "-" : "";
      v = Math.abs(v);
      long total = (long) v;
      long seconds = total % 60;
      long minutes = total / 60 % 60;
      long hours = total / 3600 % 24;
      long days = total / 86400;
      if (days != 0) {
        return "%s%dd %dh %dm %ds".formatted(sign, days, hours, minutes, seconds);
      }
      if (hours != 0) {
        return "%s%dh %dm %ds".formatted(sign, hours, minutes, seconds);
      }
      if (minutes != 0) {
        return "%s%dm %ds".formatted(sign, minutes, seconds);
      }
      return sign + GoFormat.g(v, 4) + "s";
    }
    String prefix = "";
    for (String p : SMALL) {
      if (Math.abs(v) >= 1) {
        break;
      }
      prefix = p;
      v *= 1000;
    }
    return GoFormat.g(v, 4) + prefix + "s";
  }

  static String percentage(double v) {
    return GoFormat.g(v * 100, 4) + "%";
  }

  static String timestamp(double v) {
    if (Double.isNaN(v) || Double.isInfinite(v)) {
      return GoFormat.g(v, 4);
    }
    long nanos = (long) (v * 1e9);
    return GoTime.string(
        Instant.ofEpochSecond(
            Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L)));
  }
}
