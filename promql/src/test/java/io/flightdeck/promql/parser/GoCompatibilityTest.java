package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Go behaviours Prometheus's output depends on: quoting, number and duration text. */
class GoCompatibilityTest {

  @Test
  void quotesLikeStrconvQuote() {
    assertThat(GoText.quote("a\"b\\c")).isEqualTo("\"a\\\"b\\\\c\"");
    assertThat(GoText.quote("\u0007\b\f\n\r\t\u000b")).isEqualTo("\"\\a\\b\\f\\n\\r\\t\\v\"");
    assertThat(GoText.quote("\u0000\u007f")).isEqualTo("\"\\x00\\x7f\"");
    assertThat(GoText.quote("é😀")).isEqualTo("\"é😀\"");
    assertThat(GoText.quote("\u00a0\u2028")).isEqualTo("\"\\u00a0\\u2028\"");
    assertThat(GoText.quote("\uDB40\uDC01")).isEqualTo("\"\\U000e0001\"");
    assertThat(GoText.quote("a\uDCC5z")).isEqualTo("\"a\\xc5z\"");
  }

  @Test
  void describesRunesLikeFmt() {
    assertThat(GoText.quoteRune('~')).isEqualTo("'~'");
    assertThat(GoText.quoteRune('\'')).isEqualTo("'\\''");
    assertThat(GoText.quoteRune(-1)).isEqualTo("'\uFFFD'");
    assertThat(GoText.describeRune('c')).isEqualTo("U+0063 'c'");
    assertThat(GoText.describeRune('\n')).isEqualTo("U+000A");
  }

  @Test
  void unquotesEveryEscape() {
    assertThat(GoText.unquote("\"\\a\\b\\f\\n\\r\\t\\v\\\\\\\"\""))
        .isEqualTo("\u0007\b\f\n\r\t\u000b\\\"");
    assertThat(GoText.unquote("'\\''")).isEqualTo("'");
    assertThat(GoText.unquote("\"\\x41\\101\\u00e9\\U0001F600\"")).isEqualTo("AAé😀");
    assertThat(GoText.unquote("\"\\xc3\\xa9\"")).isEqualTo("é");
    assertThat(GoText.unquote("\"\\xff\"")).isEqualTo("\uDCFF");
    assertThat(GoText.unquote("`\\n`")).isEqualTo("\\n");
  }

  @ParameterizedTest
  @CsvSource({
    "1, 1",
    "017, 15",
    "08, 8",
    "0x1F, 31",
    "0X_ff, 255",
    "1_000, 1000",
    "1_0.5, 10.5",
    "1e3, 1000",
    "1E-3, 0.001",
    "9223372036854775808, 9223372036854775808",
    "Inf, Infinity",
    "nan, NaN"
  })
  void readsNumbersLikeStrconv(String literal, double value) throws Exception {
    assertThat(Double.valueOf(GoNumbers.parseLiteral(literal))).isEqualTo(Double.valueOf(value));
  }

  @Test
  void rejectsNumbersLikeStrconv() {
    assertThatThrownBy(() -> GoNumbers.parseLiteral("0xFFFFFFFFFFFFFFFFF"))
        .hasMessage("strconv.ParseFloat: parsing \"0xFFFFFFFFFFFFFFFFF\": invalid syntax");
    assertThatThrownBy(() -> GoNumbers.parseLiteral("1e309"))
        .hasMessage("strconv.ParseFloat: parsing \"1e309\": value out of range");
  }

  @ParameterizedTest
  @CsvSource({
    "1, 1",
    "0.1, 0.1",
    "-0.0, -0",
    "1e-7, 0.0000001",
    "123456789012345680000, 123456789012345680000"
  })
  void printsShortestNumbers(double value, String text) {
    assertThat(GoNumbers.formatShortest(value)).isEqualTo(text);
  }

  @Test
  void printsOneDigitWhereOneDigitIdentifiesTheNumber() {
    assertThat(GoNumbers.formatShortest(Double.MIN_VALUE)).isEqualTo("0." + "0".repeat(323) + "5");
  }

  @Test
  void formatsFixedAndRoundsHalfAwayFromZero() {
    assertThat(GoNumbers.formatFixed(1.5, 3)).isEqualTo("1.500");
    assertThat(GoNumbers.formatFixed(-0.0001, 3)).isEqualTo("-0.000");
    assertThat(GoNumbers.formatFixed(Double.NEGATIVE_INFINITY, 6)).isEqualTo("-Inf");
    assertThat(GoNumbers.round(-2.5)).isEqualTo(-3.0);
    assertThat(GoNumbers.round(2.5)).isEqualTo(3.0);
    assertThat(GoNumbers.round(0.49999999999999994)).isEqualTo(0.0);
  }

  @ParameterizedTest
  @CsvSource({"0, PT0S", "1ms, PT0.001S", "1y2w3d4h5m6s7ms, PT9172h5m6.007S", "90m, PT1H30M"})
  void readsDurations(String text, Duration duration) throws Exception {
    assertThat(GoDuration.parse(text)).isEqualTo(duration);
  }

  @Test
  void rejectsDurationsWithPrometheusMessages() {
    assertThatThrownBy(() -> GoDuration.parse("1m1h"))
        .hasMessage("not a valid duration string: \"1m1h\"");
    assertThatThrownBy(() -> GoDuration.parse("1x"))
        .hasMessage("unknown unit \"x\" in duration \"1x\"");
    assertThatThrownBy(() -> GoDuration.parse("300y")).hasMessage("duration out of range");
    assertThatThrownBy(() -> GoDuration.parse("292y30w")).hasMessage("duration out of range");
  }

  @ParameterizedTest
  @CsvSource({
    "PT0S, 0s",
    "PT0.0009S, 0s",
    "PT1.5S, 1s500ms",
    "PT2160H, 90d",
    "PT336H, 2w",
    "PT8760H, 1y",
    "PT8761H, 365d1h",
    "-PT5M, -5m"
  })
  void printsDurations(Duration duration, String text) {
    assertThat(GoDuration.format(duration)).isEqualTo(text);
  }
}
