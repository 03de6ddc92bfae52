package io.flightdeck.dashboards;

/**
 * One PromQL query of a panel, with Grafana's target fields: the legend template ({@code {{label}}}
 * or {@code __auto}), the min step ({@code interval}), the legacy {@code intervalFactor}, instant
 * and/or range, the result {@code format} ({@code time_series}, {@code table}, {@code heatmap}) and
 * whether it is hidden.
 */
public record PanelQuery(
    String refId,
    String expr,
    String legendFormat,
    String minStep,
    int intervalFactor,
    boolean instant,
    boolean range,
    String format,
    boolean hide) {
  public PanelQuery {
    refId = Text.orEmpty(refId);
    expr = Text.orEmpty(expr);
    legendFormat = Text.orEmpty(legendFormat);
    minStep = Text.orEmpty(minStep);
    intervalFactor = intervalFactor <= 0 ? 1 : intervalFactor;
    format = format == null || format.isEmpty() ? "time_series" : format;
  }
}
