package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** {@code le} values match what Go's {@code FormatFloat(v, 'g', -1, 64)} prints. */
class PrometheusFloatTest {
  @Test
  void formatsLikeGoShortestG() {
    assertThat(PrometheusFloat.format(0.005)).isEqualTo("0.005");
    assertThat(PrometheusFloat.format(1)).isEqualTo("1");
    assertThat(PrometheusFloat.format(2.5)).isEqualTo("2.5");
    assertThat(PrometheusFloat.format(-10)).isEqualTo("-10");
    assertThat(PrometheusFloat.format(100000)).isEqualTo("100000");
    assertThat(PrometheusFloat.format(1e6)).isEqualTo("1e+06");
    assertThat(PrometheusFloat.format(1234567)).isEqualTo("1.234567e+06");
    assertThat(PrometheusFloat.format(0.0001)).isEqualTo("0.0001");
    assertThat(PrometheusFloat.format(0.00001)).isEqualTo("1e-05");
    assertThat(PrometheusFloat.format(1e-12)).isEqualTo("1e-12");
    assertThat(PrometheusFloat.format(1.7976931348623157e308)).isEqualTo("1.7976931348623157e+308");
    assertThat(PrometheusFloat.format(0)).isEqualTo("0");
    assertThat(PrometheusFloat.format(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
  }
}
