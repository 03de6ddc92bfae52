package io.flightdeck.exposition;

import io.flightdeck.model.MetricType;

/** The type words of the OpenMetrics {@code # TYPE} line. */
final class MetricTypes {
  private MetricTypes() {}

  /** The type for an OpenMetrics type word, or null when the word is not one. */
  static MetricType fromOpenMetrics(String word) {
    return switch (word) {
      case "counter" -> MetricType.COUNTER;
      case "gauge" -> MetricType.GAUGE;
      case "histogram" -> MetricType.HISTOGRAM;
      case "gaugehistogram" -> MetricType.GAUGEHISTOGRAM;
      case "summary" -> MetricType.SUMMARY;
      case "info" -> MetricType.INFO;
      case "stateset" -> MetricType.STATESET;
      case "unknown" -> MetricType.UNKNOWN;
      default -> null;
    };
  }
}
