package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class ExpositionFormatTest {
  private static final ExpositionFormat TEXT = ExpositionFormat.TEXT_0_0_4;
  private static final ExpositionFormat OPENMETRICS = ExpositionFormat.OPENMETRICS_1_0_0;

  @Test
  void picksTheParserFromTheMediaTypeWhateverItsCaseAndParameters() {
    assertThat(ExpositionFormat.forContentType("text/plain; version=0.0.4; charset=utf-8", null))
        .isEqualTo(TEXT);
    assertThat(ExpositionFormat.forContentType("text/plain", OPENMETRICS)).isEqualTo(TEXT);
    assertThat(ExpositionFormat.forContentType("application/openmetrics-text; version=1.0.0", null))
        .isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.forContentType("Application/OpenMetrics-Text", TEXT))
        .isEqualTo(OPENMETRICS);
  }

  @Test
  void aMissingOrUnknownMediaTypeTakesTheFallbackWhichMayBeNone() {
    String protobuf = "application/vnd.google.protobuf; proto=io.prometheus.client.MetricFamily";
    assertThat(ExpositionFormat.forContentType(protobuf, OPENMETRICS)).isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.forContentType(" ", OPENMETRICS)).isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.forContentType(null, TEXT)).isEqualTo(TEXT);
    assertThat(ExpositionFormat.forContentType(protobuf, null)).isNull();
    assertThat(ExpositionFormat.forContentType("", null)).isNull();
  }

  @Test
  void advertisesItsOwnContentType() {
    assertThat(ExpositionFormat.forContentType(OPENMETRICS.contentType(), null))
        .isEqualTo(OPENMETRICS);
    assertThat(ExpositionFormat.forContentType(TEXT.contentType(), null)).isEqualTo(TEXT);
  }
}
