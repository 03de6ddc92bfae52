package io.flightdeck.config;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * A body format offered to targets ({@code scrape_protocols}, {@code fallback_scrape_protocol}),
 * under Prometheus 3's names and media types.
 */
public enum ScrapeProtocol {
  PROMETHEUS_PROTO(
      "PrometheusProto",
      "application/vnd.google.protobuf;proto=io.prometheus.client.MetricFamily;encoding=delimited"),
  PROMETHEUS_TEXT_0_0_4("PrometheusText0.0.4", "text/plain;version=0.0.4"),
  PROMETHEUS_TEXT_1_0_0("PrometheusText1.0.0", "text/plain;version=1.0.0"),
  OPENMETRICS_TEXT_0_0_1("OpenMetricsText0.0.1", "application/openmetrics-text;version=0.0.1"),
  OPENMETRICS_TEXT_1_0_0("OpenMetricsText1.0.0", "application/openmetrics-text;version=1.0.0");

  /** Prometheus 3's default preference. */
  public static final List<ScrapeProtocol> DEFAULTS =
      List.of(
          OPENMETRICS_TEXT_1_0_0,
          OPENMETRICS_TEXT_0_0_1,
          PROMETHEUS_TEXT_1_0_0,
          PROMETHEUS_TEXT_0_0_4);

  private final String configName;
  private final String mediaType;

  ScrapeProtocol(String configName, String mediaType) {
    this.configName = configName;
    this.mediaType = mediaType;
  }

  /** The name written in a configuration file. */
  public String configName() {
    return configName;
  }

  /** The media type with its parameters, as offered in the Accept header. */
  public String mediaType() {
    return mediaType;
  }

  /** Whether bodies in this format are the OpenMetrics text rather than Prometheus's. */
  public boolean isOpenMetrics() {
    return this == OPENMETRICS_TEXT_0_0_1 || this == OPENMETRICS_TEXT_1_0_0;
  }

  /**
   * The Accept header for {@code preference}, weighted as Prometheus weighs it (q=0.6 down to the
   * catch-all). Protobuf is left out: Flightdeck parses the text formats only, which carry the same
   * float series, and every client library that speaks protobuf also serves text.
   */
  public static String acceptHeader(List<ScrapeProtocol> preference) {
    StringBuilder header = new StringBuilder();
    int weight = values().length + 1;
    for (ScrapeProtocol protocol : preference) {
      if (protocol == PROMETHEUS_PROTO) {
        continue;
      }
      header.append(protocol.mediaType).append(";q=0.").append(weight--).append(',');
    }
    return header.append("*/*;q=0.").append(weight).toString();
  }

  /**
   * The protocol named {@code name} (exact spelling, as Prometheus compares it).
   *
   * @throws IllegalArgumentException with Prometheus's message when the name is unknown
   */
  static ScrapeProtocol byConfigName(String name) {
    for (ScrapeProtocol protocol : values()) {
      if (protocol.configName.equals(name)) {
        return protocol;
      }
    }
    throw new IllegalArgumentException(
        "unknown scrape protocol "
            + name
            + ", supported: "
            + Arrays.stream(values())
                .map(ScrapeProtocol::configName)
                .sorted()
                .collect(Collectors.joining(" ", "[", "]")));
  }
}
