package io.flightdeck.bench;

import java.util.ArrayList;
import java.util.List;

/** Summaries of measured latencies. */
final class Latencies {
  private Latencies() {}

  /** The median (upper for an even count), -1 for none. */
  static long median(List<Long> values) {
    if (values.isEmpty()) {
      return -1;
    }
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
