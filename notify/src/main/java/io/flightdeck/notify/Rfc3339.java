package io.flightdeck.notify;

import java.time.Instant;

/** Times as Alertmanager writes them in JSON. */
final class Rfc3339 {
  /** Go's zero time, which Alertmanager shows as the end of a firing alert. */
  static final String ZERO = "0001-01-01T00:00:00Z";

  private Rfc3339() {}

  static String format(long epochMillis) {
    return epochMillis <= 0 ? ZERO : Instant.ofEpochMilli(epochMillis).toString();
  }
}
