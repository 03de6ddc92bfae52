package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Go's number formatting and humanize functions, checked against values Go prints. */
class GoFormatTest {
  @Test
  void shortestAndPrecisionG() {
    assertThat(GoFormat.g(1234567, -1)).isEqualTo("1.234567e+06");
    assertThat(GoFormat.g(123456, -1)).isEqualTo("123456");
    assertThat(GoFormat.g(0.0001, -1)).isEqualTo("0.0001");
    assertThat(GoFormat.g(0.00001, -1)).isEqualTo("1e-05");
    assertThat(GoFormat.g(1234.5678, 4)).isEqualTo("1235");
    assertThat(GoFormat.g(12345, 4)).isEqualTo("1.234e+04");
    assertThat(GoFormat.g(100, 4)).isEqualTo("100");
    assertThat(GoFormat.g(1.5, 4)).isEqualTo("1.5");
    assertThat(GoFormat.g(-0.0, -1)).isEqualTo("-0");
  }

  @Test
  void eForms() {
    assertThat(GoFormat.e(20, -1)).isEqualTo("2e+01");
    assertThat(GoFormat.e(123.456, -1)).isEqualTo("1.23456e+02");
    assertThat(GoFormat.e(0, -1)).isEqualTo("0e+00");
    assertThat(GoFormat.e(1.5, 3)).isEqualTo("1.500e+00");
    assertThat(GoFormat.json(0.000123)).isEqualTo("0.000123");
    assertThat(GoFormat.json(1e-7)).isEqualTo("1e-7");
    assertThat(GoFormat.json(60)).isEqualTo("60");
  }

  @Test
  void printf() {
    assertThat(
            GoFormat.sprintf(
                "%5.2f|%-4s|%05d|%x|%q|%v|%t",
                List.of(3.14159, "ab", 42L, 255L, "a\"b", 0.5, true)))
        .isEqualTo(" 3.14|ab  |00042|ff|\"a\\\"b\"|0.5|true");
    assertThat(GoFormat.sprintf("%d %s", List.of(1.5))).isEqualTo("%!d(float64=1.5) %!s(MISSING)");
    assertThat(GoFormat.sprintf("x", List.of(1L))).isEqualTo("x%!(EXTRA int=1)");
    assertThat(GoFormat.sprintf("100%%", List.of())).isEqualTo("100%");
  }

  @Test
  void humanize() {
    assertThat(Humanize.si(1234567)).isEqualTo("1.235M");
    assertThat(Humanize.si(0.001234)).isEqualTo("1.234m");
    assertThat(Humanize.si(0)).isEqualTo("0");
    assertThat(Humanize.binary(1024)).isEqualTo("1ki");
    assertThat(Humanize.binary(1)).isEqualTo("1");
    assertThat(Humanize.duration(90061)).isEqualTo("1d 1h 1m 1s");
    assertThat(Humanize.duration(59.5)).isEqualTo("59.5s");
    assertThat(Humanize.duration(0.0005)).isEqualTo("500us");
    assertThat(Humanize.duration(0)).isEqualTo("0s");
    assertThat(Humanize.percentage(0.5)).isEqualTo("50%");
    assertThat(Humanize.timestamp(1_700_000_000)).isEqualTo("2023-11-14 22:13:20 +0000 UTC");
  }
}
