package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExpositionFormatTest {

  @Test
  void picksTheParserFromTheContentType() {
    assertThat(ExpositionFormat.forContentType(null)).isEqualTo(ExpositionFormat.TEXT_0_0_4);
    assertThat(ExpositionFormat.forContentType("")).isEqualTo(ExpositionFormat.TEXT_0_0_4);
    assertThat(ExpositionFormat.forContentType("text/plain; version=0.0.4; charset=utf-8"))
        .isEqualTo(ExpositionFormat.TEXT_0_0_4);
    assertThat(ExpositionFormat.forContentType("application/openmetrics-text; version=1.0.0"))
        .isEqualTo(ExpositionFormat.OPENMETRICS_1_0_0);
    assertThat(ExpositionFormat.forContentType("Application/OpenMetrics-Text"))
        .isEqualTo(ExpositionFormat.OPENMETRICS_1_0_0);
    assertThat(
            ExpositionFormat.forContentType(
                "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily",
                ExpositionFormat.OPENMETRICS_1_0_0))
        .isEqualTo(ExpositionFormat.OPENMETRICS_1_0_0);
    assertThat(ExpositionFormat.forContentType(" ", ExpositionFormat.OPENMETRICS_1_0_0))
        .as("a blank header takes the fallback too")
        .isEqualTo(ExpositionFormat.OPENMETRICS_1_0_0);
  }

  @Test
  void advertisesItsOwnContentType() {
    assertThat(ExpositionFormat.forContentType(ExpositionFormat.OPENMETRICS_1_0_0.contentType()))
        .isEqualTo(ExpositionFormat.OPENMETRICS_1_0_0);
    assertThat(ExpositionFormat.forContentType(ExpositionFormat.TEXT_0_0_4.contentType()))
        .isEqualTo(ExpositionFormat.TEXT_0_0_4);
  }
}
