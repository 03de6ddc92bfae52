package io.flightdeck.exposition;

import io.flightdeck.model.MetricMetadata;
import io.flightdeck.model.MetricType;

/** The metadata lines seen for one metric family, and whether its samples have started. */
final class Family {
  final String name;
  MetricType type = MetricType.UNKNOWN;
  String help = "";
  String unit = "";
  boolean hasType;
  boolean hasHelp;
  boolean hasUnit;
  boolean hasSamples;

  /** Where the TYPE and HELP lines and the first sample were (0: none yet), for errors. */
  int typeLine;

  int helpLine;
  int firstSampleLine;
  private MetricMetadata metadata;

  Family(String name) {
    this.name = name;
  }

  MetricMetadata metadata() {
    if (metadata == null) {
      metadata = new MetricMetadata(type, help, unit);
    }
    return metadata;
  }

  void setType(MetricType type) {
    this.type = type;
    this.hasType = true;
    metadata = null;
  }

  void setHelp(String help) {
    this.help = help;
    this.hasHelp = true;
    metadata = null;
  }

  void setUnit(String unit) {
    this.unit = unit;
    this.hasUnit = true;
    metadata = null;
  }
}
