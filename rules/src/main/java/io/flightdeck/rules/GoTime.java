package io.flightdeck.rules;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** Times and durations printed as Go and Prometheus print them. */
final class GoTime {
  private static final DateTimeFormatter DATE_TIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter SPACED =
      DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC);

  private GoTime() {}

  /** RFC 3339 with trimmed nanoseconds in UTC, as Go's JSON encodes a {@code time.Time}. */
  static String rfc3339(Instant t) {
    return DATE_TIME.format(t) + fraction(t.getNano()) + "Z";
  }

  /** Go's zero time in JSON, shown for a rule never evaluated. */
  static final String ZERO = "0001-01-01T00:00:00Z";

  /** Go's {@code time.Time.String()} in UTC: {@code 2024-01-02 03:04:05.5 +0000 UTC}. */
  static String string(Instant t) {
    return SPACED.format(t) + fraction(t.getNano()) + " +0000 UTC";
  }

  private static String fraction(int nanos) {
    if (nanos == 0) {
      return "";
    }
    String s = String.format("%09d", nanos);
    int end = s.length();
    while (s.charAt(end - 1) == '0') {
      end--;
    }
    return "." + s.substring(0, end);
  }

  /** Go's {@code time.Duration.String()}: 5m0s, 1h0m0s, 1.5s, 0s. */
  static String goDuration(long ms) {
    if (ms == 0) {
      return "0s";
    }
    StringBuilder out = new StringBuilder();
    if (ms < 0) {
      out.append('-');
      ms = -ms;
    }
    if (ms < 1000) {
      return out.append(ms).append("ms").toString();
    }
    long h = ms / 3_600_000;
    long m = ms / 60_000 % 60;
    long s = ms / 1000 % 60;
    long frac = ms % 1000;
    if (h > 0) {
      out.append(h).append('h');
    }
    if (h > 0 || m > 0) {
      out.append(m).append('m');
    }
    out.append(s);
    if (frac > 0) {
      out.append(fraction((int) (frac * 1_000_000)));
    }
    return out.append('s').toString();
  }
}
