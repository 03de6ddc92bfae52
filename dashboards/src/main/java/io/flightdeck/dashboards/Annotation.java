package io.flightdeck.dashboards;

/**
 * An annotation source: Grafana's built-in one ({@code builtIn}: our own events: alerts, XIDs,
 * restarts) or a PromQL one whose non-zero samples become events, merged into regions when closer
 * than {@code step}, titled by {@code titleFormat}/{@code textFormat}/{@code tagKeys}.
 */
public record Annotation(
    String name,
    boolean builtIn,
    boolean enable,
    boolean hide,
    String iconColor,
    String expr,
    String step,
    String titleFormat,
    String textFormat,
    String tagKeys,
    boolean useValueForTime) {
  public Annotation {
    name = Text.orEmpty(name);
    iconColor = Text.orEmpty(iconColor);
    expr = Text.orEmpty(expr);
    step = Text.orEmpty(step);
    titleFormat = Text.orEmpty(titleFormat);
    textFormat = Text.orEmpty(textFormat);
    tagKeys = Text.orEmpty(tagKeys);
  }
}
