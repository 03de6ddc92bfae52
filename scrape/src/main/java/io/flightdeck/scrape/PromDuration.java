package io.flightdeck.scrape;

import java.time.Duration;

/**
 * Durations written as Prometheus writes them in labels and the API: {@code 1m30s}, {@code 500ms}.
 */
final class PromDuration {
  private static final long[] UNIT_MS = {
    365L * 24 * 3600_000, 7L * 24 * 3600_000, 24L * 3600_000, 3600_000, 60_000, 1000, 1
  };
  private static final String[] UNIT = {"y", "w", "d", "h", "m", "s", "ms"};

  private PromDuration() {}

  static String format(Duration duration) {
    long ms = duration.toMillis();
    if (ms == 0) {
      return "0s";
    }
    StringBuilder text = new StringBuilder();
    for (int i = 0; i < UNIT_MS.length; i++) {
      if (ms >= UNIT_MS[i]) {
        text.append(ms / UNIT_MS[i]).append(UNIT[i]);
        ms %= UNIT_MS[i];
      }
    }
    return text.toString();
  }
}
