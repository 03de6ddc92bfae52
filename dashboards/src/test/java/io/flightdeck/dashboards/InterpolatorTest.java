package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Grafana's interpolation rules, as its Prometheus data source and template service apply them. */
class InterpolatorTest {
  private static final Map<String, VariableValue> VALUES =
      Map.of(
          "single", VariableValue.single("a\\b'c"),
          "multi", VariableValue.multi(List.of("a.b", "c|d")),
          "one", VariableValue.multi(List.of("x+y")),
          "slash", VariableValue.multi(List.of("a\\b")),
          "all", VariableValue.multi(List.of("api", "db", "web")),
          "customAll", VariableValue.customAll(".*", List.of("api", "db")),
          "v", VariableValue.multi(List.of("a.b", "c")),
          "gpu", VariableValue.single("0"),
          "gpus", VariableValue.single("0-7"));

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '`',
      value = {
        // a plain variable: only backslashes and quotes escaped
        "up{x=\"$single\"} => up{x=\"a\\\\b\\\\'c\"}",
        // multi-value: regex-escaped for a PromQL string, joined as (a|b)
        "up{x=~\"$multi\"} => up{x=~\"(a\\\\.b|c\\\\|d)\"}",
        // one value of a multi variable: escaped, not wrapped
        "up{x=~\"$one\"} => up{x=~\"x\\\\+y\"}",
        "up{x=~\"$slash\"} => up{x=~\"a\\\\\\\\b\"}",
        // All without a custom all value: every option
        "up{job=~\"$all\"} => up{job=~\"(api|db|web)\"}",
        // All with a custom all value: written as is
        "up{job=~\"$customAll\"} => up{job=~\".*\"}",
        "up{job=~\"${customAll:csv}\"} => up{job=~\".*\"}",
        // the forms of a reference
        "${v} => (a\\\\.b|c)",
        "[[v]] => (a\\\\.b|c)",
        "[[v:csv]] => a.b,c",
        // formats
        "${v:regex} => (a\\.b|c)",
        "${v:pipe} => a.b|c",
        "${v:csv} => a.b,c",
        "${v:raw} => a.b,c",
        "${v:glob} => {a.b,c}",
        "${v:json} => [\"a.b\",\"c\"]",
        "${v:doublequote} => \"a.b\",\"c\"",
        "${v:singlequote} => 'a.b','c'",
        "${v:queryparam} => var-v=a.b&var-v=c",
        "${v:percentencode} => %7Ba.b%2Cc%7D",
        // names are whole words; unknown ones stay as written
        "$gpus and $gpu => 0-7 and 0",
        "rate(x[$nope]) => rate(x[$nope])",
      })
  void promqlInterpolation(String template, String expected) {
    assertThat(Interpolator.promql(template, VALUES)).isEqualTo(expected);
  }

  @Test
  void builtInsOfAQueryAreInterpolated() {
    QueryTiming timing = QueryTiming.compute(0, 3_600_000, 1000, "", "", 1, "15s");
    String expr =
        "increase(x[$__range]) / rate(x[$__rate_interval]) + $__interval_ms + ${__interval} + $__range_s";
    assertThat(Interpolator.promql(expr, timing.builtIns()))
        .isEqualTo("increase(x[3600s]) / rate(x[60s]) + 15000 + 15s + 3600");
  }

  @Test
  void referencesAreFoundInEveryForm() {
    assertThat(Interpolator.references("$a ${b} ${c:csv} [[d]] [[e:raw]] ${f.g}"))
        .containsExactly("a", "b", "c", "d", "e", "f");
  }
}
