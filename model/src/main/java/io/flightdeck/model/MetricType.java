package io.flightdeck.model;

/** The metric types of the OpenMetrics and Prometheus exposition formats. */
public enum MetricType {
  UNKNOWN,
  COUNTER,
  GAUGE,
  HISTOGRAM,
  GAUGEHISTOGRAM,
  SUMMARY,
  INFO,
  STATESET;

  /** The lower-case name used by the exposition formats and the metadata API. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }
}
