package io.flightdeck.bench;

import java.util.List;

/**
 * The generated workload: every series is scraped once per slice, slice {@code i} at {@code startMs
 * + i * intervalMs}.
 */
record Workload(List<SeriesSpec> series, long startMs, long intervalMs, int slices) {

  long samples() {
    return (long) series.size() * slices;
  }
}
