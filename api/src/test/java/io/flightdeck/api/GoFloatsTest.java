package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected strings are what Go's strconv and Prometheus's marshalling print for each value. */
class GoFloatsTest {
  @ParameterizedTest
  @CsvSource({
    "1, 1",
    "0.1, 0.1",
    "-2.5, -2.5",
    "100, 100",
    "1435781451.781, 1435781451.781",
    "0.000001, 0.000001",
    "0.0000001, 1e-07",
    "1.5e-10, 1.5e-10",
    "1e20, 100000000000000000000",
    "1e21, 1e+21",
    "-1.2345e22, -1.2345e+22",
    "4.9e-324, 5e-324",
    "1.7976931348623157e308, 1.7976931348623157e+308",
    "0.30000000000000004, 0.30000000000000004",
  })
  void sampleValuesUsePlainDigitsOrGoExponentForm(double value, String expected) {
    assertThat(GoFloats.sampleValue(value)).isEqualTo(expected);
  }

  @Test
  void specialValues() {
    assertThat(GoFloats.sampleValue(Double.NaN)).isEqualTo("NaN");
    assertThat(GoFloats.sampleValue(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(GoFloats.sampleValue(Double.NEGATIVE_INFINITY)).isEqualTo("-Inf");
    assertThat(GoFloats.sampleValue(0.0)).isEqualTo("0");
    assertThat(GoFloats.sampleValue(-0.0)).isEqualTo("-0");
  }

  @Test
  void plainNeverUsesAnExponent() {
    assertThat(GoFloats.plain(1e21)).isEqualTo("1000000000000000000000");
    assertThat(GoFloats.plain(1e-7)).isEqualTo("0.0000001");
    assertThat(GoFloats.plain(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
  }

  @Test
  void jsonNumbersDropTheExponentsLeadingZeroAsEncodingJsonDoes() {
    assertThat(GoFloats.jsonNumber(1e-7)).isEqualTo("1e-7");
    assertThat(GoFloats.jsonNumber(1e21)).isEqualTo("1e+21");
    assertThat(GoFloats.jsonNumber(1435781451.78)).isEqualTo("1435781451.78");
    assertThat(GoFloats.jsonNumber(0.000123)).isEqualTo("0.000123");
  }

  @Test
  void fastPlainLayoutAgreesWithExactDecimalForRandomDoubles() {
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 100_000; i++) {
      double v =
          switch (i % 3) {
            case 0 -> Double.longBitsToDouble(random.nextLong());
            case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(40) - 20);
            default -> Math.round(random.nextDouble() * 10_000) / 100.0;
          };
      if (!Double.isFinite(v) || v == 0 || Math.abs(v) < Double.MIN_NORMAL) {
        continue;
      }
      String exact =
          new java.math.BigDecimal(Double.toString(v)).stripTrailingZeros().toPlainString();
      assertThat(GoFloats.plain(v)).as("plain(%s)", v).isEqualTo(exact);
    }
  }

  @Test
  void appendingASampleValueWritesWhatSampleValueReturns() {
    java.util.Random random = new java.util.Random(11);
    double[] specials = {
      Double.NaN, Double.POSITIVE_INFINITY, -0.0, 0.0, 4.9e-324, 1e-6, 9.99e-7, 1e21, 1e15, 37, -2
    };
    for (int i = 0; i < 100_000; i++) {
      double v =
          i < specials.length
              ? specials[i]
              : switch (i % 3) {
                case 0 -> Double.longBitsToDouble(random.nextLong());
                case 1 -> random.nextGaussian() * Math.pow(10, random.nextInt(50) - 25);
                default -> Math.round(random.nextDouble() * 1e12) / 100.0;
              };
      ResponseBytes out = new ResponseBytes(1).append('x');
      GoFloats.appendSampleValue(out, v);
      assertThat(out.toString().substring(1))
          .as("appendSampleValue(%s)", v)
          .isEqualTo(GoFloats.sampleValue(v));
    }
  }
}
