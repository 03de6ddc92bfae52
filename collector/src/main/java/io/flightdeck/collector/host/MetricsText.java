package io.flightdeck.collector.host;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Renders families as a {@code /metrics} body in text format 0.0.4, families sorted by name and
 * series by labels, the order node_exporter's client library serves, so outputs can be diffed. A
 * process that renders again and again keeps a {@link MetricsTextRenderer} instead.
 */
public final class MetricsText {
  private MetricsText() {}

  public static String toText(List<MetricFamily> families) {
    return new String(new MetricsTextRenderer().render(families), StandardCharsets.UTF_8);
  }
}
