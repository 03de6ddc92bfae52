package io.flightdeck.dashboards;

import java.util.List;

/**
 * A link in the dashboard's header: {@code type} {@code link} (to {@code url}) or {@code
 * dashboards} (those carrying {@code tags}); {@code includeVars} and {@code keepTime} carry the
 * variables and time range along.
 */
public record DashboardLink(
    String title,
    String type,
    String url,
    List<String> tags,
    boolean asDropdown,
    boolean targetBlank,
    boolean includeVars,
    boolean keepTime,
    String tooltip,
    String icon) {
  public DashboardLink {
    title = Text.orEmpty(title);
    type = type == null || type.isEmpty() ? "link" : type;
    url = Text.orEmpty(url);
    tags = tags == null ? List.of() : List.copyOf(tags);
    tooltip = Text.orEmpty(tooltip);
    icon = Text.orEmpty(icon);
  }
}
