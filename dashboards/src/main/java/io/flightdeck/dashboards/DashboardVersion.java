package io.flightdeck.dashboards;

import java.time.Instant;
import java.util.List;

/** One saved version: its number, when and by whom, the message, and what changed. */
public record DashboardVersion(
    int version, Instant created, String author, String message, String folder, List<String> diff) {
  public DashboardVersion {
    diff = List.copyOf(diff);
  }
}
