package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ParamsTest {
  @Test
  void timesAreUnixSecondsRoundedToMillisecondsOrRfc3339() {
    assertThat(Params.parseTime("1435781451.781")).isEqualTo(1435781451781L);
    assertThat(Params.parseTime("1435781451")).isEqualTo(1435781451000L);
    assertThat(Params.parseTime("1.0006")).isEqualTo(1001);
    assertThat(Params.parseTime("1.0005")).as("Go's float fraction is 0.000499...").isEqualTo(1000);
    assertThat(Params.parseTime("-1.5")).isEqualTo(-1500);
    assertThat(Params.parseTime("1e3")).isEqualTo(1_000_000);
    assertThat(Params.parseTime("2015-07-01T20:10:51.781Z")).isEqualTo(1435781451781L);
    assertThat(Params.parseTime("2015-07-01T22:10:51+02:00")).isEqualTo(1435781451000L);
  }

  @Test
  void badTimesNameTheText() {
    assertThatThrownBy(() -> Params.parseTime("yesterday"))
        .hasMessage("cannot parse \"yesterday\" to a valid timestamp");
    assertThatThrownBy(() -> Params.parseTime("1d"))
        .hasMessage("cannot parse \"1d\" to a valid timestamp");
  }

  @Test
  void durationsAreFloatSecondsOrPrometheusDurations() {
    assertThat(Params.parseDurationNanos("15")).isEqualTo(15_000_000_000L);
    assertThat(Params.parseDurationNanos("0.5")).isEqualTo(500_000_000L);
    assertThat(Params.parseDurationNanos("1m30s")).isEqualTo(90_000_000_000L);
    assertThat(Params.parseDurationNanos("1d")).isEqualTo(86_400_000_000_000L);
    assertThat(Params.parseDurationNanos("100ms")).isEqualTo(100_000_000L);
    assertThatThrownBy(() -> Params.parseDurationNanos("1x"))
        .hasMessage("cannot parse \"1x\" to a valid duration");
    assertThatThrownBy(() -> Params.parseDurationNanos("30s1m"))
        .hasMessage("cannot parse \"30s1m\" to a valid duration");
    assertThatThrownBy(() -> Params.parseDurationNanos("1e300"))
        .hasMessage("cannot parse \"1e300\" to a valid duration. It overflows int64");
  }

  @Test
  void aHundredThousandDigitsAreRefusedInLinearTime() {
    // java.util.regex backtracks quadratically over the float pattern on such a run of digits.
    String digits = "1".repeat(100_000) + "x";
    assertThatThrownBy(() -> Params.parseTime(digits))
        .hasMessageStartingWith("cannot parse \"111")
        .hasMessageEndingWith("1x\" to a valid timestamp");
    assertThatThrownBy(() -> Params.parseDurationNanos(digits))
        .hasMessageEndingWith("1x\" to a valid duration");
    assertThatThrownBy(() -> Params.parseDurationNanos("1".repeat(100_000) + "m"))
        .hasMessageEndingWith("m\" to a valid duration");
  }

  @Test
  void timeParameterErrorsCarryPrometheusPrefix() {
    Params params = new Params(new FakeExchange("time", "x"));
    assertThatThrownBy(() -> params.time("time", 0))
        .isInstanceOf(ApiException.class)
        .hasMessage(
            "invalid parameter \"time\": invalid time value for 'time': cannot parse \"x\" to a"
                + " valid timestamp");
  }

  @Test
  void limitAndMatchers() {
    assertThat(new Params(new FakeExchange()).limit()).isZero();
    assertThat(new Params(new FakeExchange("limit", "5")).limit()).isEqualTo(5);
    assertThatThrownBy(() -> new Params(new FakeExchange("limit", "-1")).limit())
        .hasMessage("invalid parameter \"limit\": limit must be non-negative");
    assertThatThrownBy(() -> new Params(new FakeExchange("limit", "a")).limit())
        .hasMessage("invalid parameter \"limit\": strconv.Atoi: parsing \"a\": invalid syntax");
    assertThat(
            new Params(new FakeExchange("match[]", "up", "match[]", "{job=\"a\"}")).matcherSets())
        .hasSize(2);
    assertThatThrownBy(() -> new Params(new FakeExchange("match[]", "{job=~\".*\"}")).matcherSets())
        .hasMessage(
            "1:1: parse error: vector selector must contain at least one non-empty matcher");
  }
}
