package io.flightdeck.app;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;

/** API time parameters as Prometheus accepts them: Unix seconds (with fraction) or RFC 3339. */
final class TimeParam {
  private TimeParam() {}

  /** Milliseconds since the epoch, or {@code fallback} when the parameter is absent. */
  static long parse(String name, String value, long fallback) {
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      return new BigDecimal(value)
          .movePointRight(3)
          .setScale(0, java.math.RoundingMode.HALF_EVEN)
          .longValueExact();
    } catch (NumberFormatException | ArithmeticException e) {
      try {
        return OffsetDateTime.parse(value).toInstant().toEpochMilli();
      } catch (DateTimeParseException e2) {
        throw new IllegalArgumentException(
            "invalid parameter \""
                + name
                + "\": cannot parse \""
                + value
                + "\" to a valid timestamp");
      }
    }
  }
}
