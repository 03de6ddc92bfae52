package io.flightdeck.promqltest;

import io.flightdeck.model.StaleMarker;
import java.util.List;
import java.util.function.Function;

/** Short text for values and series in failure messages. */
final class Values {
  /** Series listed in a message before the rest is only counted. */
  private static final int MAX_LISTED = 8;

  private Values() {}

  static String format(double v) {
    if (StaleMarker.is(v)) {
      return "stale";
    }
    if (Double.isNaN(v)) {
      return "NaN";
    }
    if (Double.isInfinite(v)) {
      return v > 0 ? "+Inf" : "-Inf";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return (v == 0 && 1 / v < 0) ? "-0" : Long.toString((long) v);
    }
    return Double.toString(v);
  }

  /** {@code [x 1, y 2]}, cut after a few items. */
  static <T> String list(List<T> items, Function<T, String> text) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < items.size() && i < MAX_LISTED; i++) {
      sb.append(i == 0 ? "" : ", ").append(text.apply(items.get(i)));
    }
    if (items.size() > MAX_LISTED) {
      sb.append(", ... ").append(items.size() - MAX_LISTED).append(" more");
    }
    return sb.append(']').toString();
  }
}
