package io.flightdeck.dashboards;

import java.util.List;

/**
 * The dashboard's default time range ({@code now-15m} or absolute ISO/epoch text as Grafana writes
 * it), refresh ({@code ""} for off), the refresh choices offered, the time zone ({@code ""} for the
 * browser's, {@code utc}, or a zone name) and the shared crosshair mode ({@code graphTooltip}: 0
 * off, 1 shared crosshair, 2 shared tooltip).
 */
public record TimeSettings(
    String from,
    String to,
    String refresh,
    List<String> refreshIntervals,
    String timezone,
    int graphTooltip) {

  static final TimeSettings DEFAULT = new TimeSettings("now-6h", "now", "", List.of(), "", 0);

  public TimeSettings {
    from = from == null || from.isEmpty() ? "now-6h" : from;
    to = to == null || to.isEmpty() ? "now" : to;
    refresh = Text.orEmpty(refresh);
    refreshIntervals = refreshIntervals == null ? List.of() : List.copyOf(refreshIntervals);
    timezone = Text.orEmpty(timezone);
  }
}
