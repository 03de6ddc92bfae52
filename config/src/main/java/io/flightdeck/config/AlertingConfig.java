package io.flightdeck.config;

import io.flightdeck.model.relabel.RelabelConfig;
import java.util.List;

/** The {@code alerting} section: relabelling applied to every alert, and where alerts go. */
public record AlertingConfig(
    List<RelabelConfig> alertRelabelConfigs, List<AlertmanagerConfig> alertmanagers) {
  public static final AlertingConfig NONE = new AlertingConfig(List.of(), List.of());

  public AlertingConfig {
    alertRelabelConfigs = List.copyOf(alertRelabelConfigs);
    alertmanagers = List.copyOf(alertmanagers);
  }
}
