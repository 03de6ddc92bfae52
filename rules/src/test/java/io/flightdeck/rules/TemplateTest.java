package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Sample;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The Go-template subset that alert templates use, with Prometheus's data and functions. */
class TemplateTest {
  private static final RuleQuery QUERY =
      (expr, t) ->
          switch (expr.toString()) {
            case "up" ->
                List.of(
                    new Sample(Labels.of("__name__", "up", "instance", "b:1"), t, 0),
                    new Sample(Labels.of("__name__", "up", "instance", "a:1"), t, 1));
            case "nothing" -> List.of();
            default -> throw new IllegalStateException("bad query " + expr);
          };
  private static final TemplateData DATA =
      new TemplateData(
          Map.of("instance", "node1:9100", "job", "node", "__name__", "up"),
          Map.of("cluster", "eu"),
          "http://flightdeck:9090/fd",
          1234.5678,
          90_000,
          QUERY);

  @ParameterizedTest
  @CsvSource(
      delimiterString = " => ",
      ignoreLeadingAndTrailingWhitespace = false,
      textBlock =
          """
          {{ $labels.instance }} down => node1:9100 down
          {{ .Labels.job }}/{{ $externalLabels.cluster }} => node/eu
          {{ $value }} => 1234.5678
          {{ .Value | humanize }} => 1.235k
          {{ humanize1024 1048576 }} => 1Mi
          {{ humanizeDuration 3725 }} => 1h 2m 5s
          {{ humanizeDuration 0.25 }} => 250ms
          {{ humanizePercentage 0.12345 }} => 12.35%
          {{ humanizeTimestamp 1.5 }} => 1970-01-01 00:00:01.5 +0000 UTC
          {{ printf "%.2f|%d|%s|%5.1f" 3.14159 42 "x" 2.5 }} => 3.14|42|x|  2.5
          {{ $labels.job | toUpper }} {{ toLower "AB" }} => NODE ab
          {{ title "hello gpu-world" }} => Hello Gpu-World
          {{ reReplaceAll ":.*" "" $labels.instance }} => node1
          {{ reReplaceAll "(n)ode" "$1-" "node" }} => n-
          {{ if gt $value 1000.0 }}big{{ else }}small{{ end }} => big
          {{ if eq $labels.job "x" }}x{{ else if eq $labels.job "node" }}n{{ end }} => n
          {{ with $labels.missing }}has{{ else }}none{{ end }} => none
          {{ $labels.missing }}| => |
          {{ $x := $labels.job }}{{ $x }}! => node!
          {{ range $i, $s := query "up" | sortByLabel "instance" }}{{ $i }}={{ label "instance" $s }}:{{ value $s }};{{ end }} => 0=a:1:1;1=b:1:0;
          {{ query "up" | first | value }} => 0
          {{ range query "nothing" }}x{{ else }}empty{{ end }} => empty
          {{ externalURL }} {{ pathPrefix }} => http://flightdeck:9090/fd /fd
          {{ stripPort "host:80" }} {{ stripDomain "a.b.c:9" }} => host a:9
          {{ len $labels }} {{ index $labels "job" }} {{ not true }} {{ and 1 0 }} {{ or 0 "y" }} => 3 node false 0 y
          {{- /* comment */ -}} a   {{- "b" }}  {{ "c" -}}   d => ab  cd
          {{ parseDuration "1m30s" }} {{ toDuration 90 }} => 90 1m30s
          """)
  void expands(String template, String expected) {
    assertThat(Template.parse("t", template.strip()).expand(DATA)).isEqualTo(expected);
  }

  @Test
  void floatsPrintLikeGo() {
    assertThat(expand("{{ 1e6 }} {{ 0.00001 }} {{ 100.0 }} {{ 1e21 }}", 0))
        .isEqualTo("1e+06 1e-05 100 1e+21");
    assertThat(expand("{{ $value }}", Double.NaN)).isEqualTo("NaN");
    assertThat(expand("{{ $value }}", Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
  }

  @Test
  void runtimeErrorsNameTheTemplateAndFunction() {
    assertThatThrownBy(() -> expand("{{ query \"nothing\" | first }}", 0))
        .hasMessage(
            "template: t:1: executing \"t\": error calling first: first() called on vector with no elements");
    assertThatThrownBy(() -> expand("\n{{ humanize \"abc\" }}", 0))
        .hasMessage(
            "template: t:2: executing \"t\": error calling humanize: strconv.ParseFloat: parsing \"abc\": invalid syntax");
  }

  @Test
  void regexFunctionsRunInLinearTimeOnLongLabelValues() {
    // (.*a){25}b against 5,000 a's backtracks for hours in java.util.regex.
    String value = "a".repeat(5_000);
    TemplateData data = new TemplateData(Map.of("k", value), Map.of(), "", 0, 0, QUERY);
    assertThat(
            Template.parse(
                    "t", "{{ match \"(.*a){25}b\" $labels.k }}|{{ match \"a{3}$\" $labels.k }}")
                .expand(data))
        .isEqualTo("false|true");
    assertThat(
            Template.parse("t", "{{ reReplaceAll \"(.*a){25}b\" \"x\" $labels.k }}").expand(data))
        .isEqualTo(value);
    assertThat(Template.parse("t", "{{ reReplaceAll \"(.*a){25}\" \"x\" $labels.k }}").expand(data))
        .isEqualTo("x");
  }

  @Test
  void reReplaceAllExpandsAndSkipsEmptyMatchesAsGo() {
    assertThat(expand("{{ reReplaceAll \"a*\" \"X\" \"baaac\" }}", 0)).isEqualTo("XbXcX");
    assertThat(
            expand("{{ reReplaceAll \"(?P<h>[a-z]+):(\\\\d+)\" \"${2}-$h-$1x-$$\" \"n:80\" }}", 0))
        .isEqualTo("80-n--$");
    assertThat(expand("{{ match \"^node\" \"node1\" }} {{ match \"^ode\" \"node1\" }}", 0))
        .isEqualTo("true false");
  }

  @Test
  void badRegexInATemplateIsAnErrorNamingTheFunctionAndExpression() {
    assertThatThrownBy(() -> expand("{{ reReplaceAll \"(a\" \"\" \"x\" }}", 0))
        .hasMessage(
            "template: t:1: executing \"t\": error calling reReplaceAll: regexp: Compile(`(a`): error parsing regexp: missing closing ): `(a`");
    assertThatThrownBy(() -> expand("{{ match \"a**\" \"x\" }}", 0))
        .hasMessageContaining("error calling match: regexp: Compile(`a**`): error parsing regexp:");
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          {{ foo }}                  | template: t:1: function "foo" not defined
          {{ $x }}                   | template: t:1: undefined variable "$x"
          {{ if $value }}x           | template: t:1: unexpected EOF
          {{ end }}                  | template: t:1: unexpected {{end}}
          {{ }}                      | template: t:1: missing value for command
          {{ "abc }}                 | template: t:1: unterminated quoted string
          {{ (1 }}                   | template: t:1: unclosed left paren
          {{ if 1 }}a{{ else }}b{{ else }}c{{ end }} | template: t:1: expected end; found {{else}}
          {{ $labels.job             | template: t:1: unclosed action
          """)
  void parseErrorsUseGoWording(String template, String message) {
    assertThatThrownBy(() -> Template.parse("t", template.strip())).hasMessage(message);
  }

  private static String expand(String template, double value) {
    return Template.parse("t", template)
        .expand(new TemplateData(Map.of(), Map.of(), "", value, 0, QUERY));
  }
}
