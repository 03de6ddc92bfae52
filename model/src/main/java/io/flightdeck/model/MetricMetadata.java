package io.flightdeck.model;

import java.util.Objects;

/** Type, help text and unit of one metric family, as exposed by scrapes and remote write. */
public record MetricMetadata(MetricType type, String help, String unit) {
  public MetricMetadata {
    Objects.requireNonNull(type, "type");
    help = help == null ? "" : help;
    unit = unit == null ? "" : unit;
  }
}
