package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Good and bad rule files; the expected texts are promtool 2.42's output for the same fixtures
 * (promtool prints the YAML syntax error twice, we print it once).
 */
class RuleFileParserTest {
  private static final Path DIR = Path.of("src/test/resources/rules/check");

  @Test
  void readsEveryFieldOfAGoodFile() {
    RuleFile file =
        RuleFileParser.parse(
            "f.yml",
            """
            groups:
              - name: g
                interval: 30s
                query_offset: 1m
                limit: 10
                labels: {team: ml}
                rules:
                  - record: job:up:sum
                    expr: sum by (job) (up)
                    labels: {source: rule}
                  - alert: Down
                    expr: up == 0
                    for: 5m
                    keep_firing_for: 2m
                    labels: {severity: page}
                    annotations: {summary: "{{ $labels.instance }} down"}
            """);
    assertThat(file.ruleCount()).isEqualTo(2);
    RuleGroupSpec g = file.groups().getFirst();
    assertThat(g.name()).isEqualTo("g");
    assertThat(g.interval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(g.queryOffset()).isEqualTo(Duration.ofMinutes(1));
    assertThat(g.limit()).isEqualTo(10);
    assertThat(g.labels()).isEqualTo(Map.of("team", "ml"));
    RuleSpec record = g.rules().get(0);
    assertThat(record.isAlerting()).isFalse();
    assertThat(record.name()).isEqualTo("job:up:sum");
    assertThat(record.labels()).isEqualTo(Map.of("source", "rule"));
    RuleSpec alert = g.rules().get(1);
    assertThat(alert.isAlerting()).isTrue();
    assertThat(alert.forDuration()).isEqualTo(Duration.ofMinutes(5));
    assertThat(alert.keepFiringFor()).isEqualTo(Duration.ofMinutes(2));
    assertThat(alert.annotations()).containsEntry("summary", "{{ $labels.instance }} down");
  }

  @Test
  void aRecordingRuleWritingTheSameSeriesTwiceIsRefusedButAlertsMayRepeat() {
    String text =
        """
        groups:
          - name: a
            labels: {team: ml}
            rules:
              - record: job:loss:avg
                expr: avg(loss)
              - record: job:loss:avg
                expr: avg(loss)
                labels: {team: infra}
              - alert: LossHigh
                expr: loss > 1
              - alert: LossHigh
                expr: loss > 2
          - name: b
            rules:
              - record: job:loss:avg
                expr: avg(loss)
                labels: {team: ml}
        """;
    RuleFileException e =
        org.assertj.core.api.Assertions.catchThrowableOfType(
            RuleFileException.class, () -> RuleFileParser.parse("d.yml", text));
    assertThat(e.errors())
        .containsExactly(
            "d.yml: 16:17: group \"b\", rule 1, \"job:loss:avg\": duplicate recording rule:"
                + " rule 1 of group \"a\" (line 5) records the same name and labels");
  }

  @Test
  void anEmptyFileHasNoGroups() {
    assertThat(RuleFileParser.parse("e.yml", "").groups()).isEmpty();
    assertThat(RuleFileParser.parse("e.yml", "groups: []\n").groups()).isEmpty();
  }

  @Test
  void theGoodFixtureParses() {
    assertThat(RuleFileParser.parse(DIR.resolve("good.yml")).ruleCount()).isEqualTo(2);
  }

  @ParameterizedTest
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          bad_expr.yml | 5:15: group "example", rule 1, "InstanceDown": could not parse expression: 1:6: parse error: unexpected end of input
          bad_duplicate_group.yml | 6:5: groupname: "example" is repeated in the same file
          bad_template.yml | group "example", rule 1, "A": annotation "summary": template: __alert_A:1: unclosed action
          bad_yaml.yml | yaml: line 5: mapping values are not allowed in this context
          bad_duration.yml | not a valid duration string: "5x"
          """)
  void oneError(String fixture, String expected) {
    assertThat(errors(fixture)).containsExactly(DIR.resolve(fixture) + ": " + expected);
  }

  @Test
  void recordAndAlertBothOrNeither() {
    assertThat(errors("bad_record_and_alert.yml"))
        .containsExactly(
            p("bad_record_and_alert.yml")
                + "5:17: 4:16: group \"example\", rule 1, \"A\": only one of 'record' and 'alert' must be set",
            p("bad_record_and_alert.yml")
                + "0:0: group \"example\", rule 2, \"\": one of 'record' or 'alert' must be set");
  }

  @Test
  void invalidNamesAndRecordingRuleFields() {
    String f = p("bad_names.yml");
    assertThat(errors("bad_names.yml"))
        .containsExactly(
            f + "4:17: group \"example\", rule 1, \"a-b\": invalid recording rule name: a-b",
            f + "group \"example\", rule 1, \"a-b\": invalid label name: 0bad",
            f
                + "8:17: group \"example\", rule 2, \"x{a=\\\"b\\\"}\": invalid field 'annotations' in recording rule",
            f
                + "8:17: group \"example\", rule 2, \"x{a=\\\"b\\\"}\": invalid field 'for' in recording rule",
            f
                + "8:17: group \"example\", rule 2, \"x{a=\\\"b\\\"}\": invalid recording rule name: x{a=\"b\"}");
  }

  @Test
  void emptyGroupNameAndMissingExpr() {
    assertThat(errors("bad_missing_fields.yml"))
        .containsExactly(
            p("bad_missing_fields.yml") + "2:5: Groupname must not be empty",
            p("bad_missing_fields.yml")
                + "0:0: group \"\", rule 1, \"a\": field 'expr' must be set in rule");
  }

  @Test
  void unknownFieldsAndDuplicateKeysAreYamlErrors() {
    assertThat(errors("bad_unknown_field.yml"))
        .containsExactly(
            p("bad_unknown_field.yml")
                + "yaml: unmarshal errors:\n"
                + "  line 3: field rulez not found in type rulefmt.RuleGroup\n"
                + "  line 7: field foo not found in type rulefmt.RuleNode");
    assertThat(errors("bad_duplicate_key.yml"))
        .containsExactly(
            p("bad_duplicate_key.yml")
                + "yaml: unmarshal errors:\n  line 6: mapping key \"expr\" already defined at line 5");
  }

  @Test
  void wrongTypesAndBadGroupLabels() {
    RuleFileException e =
        catchThrowableOfType(
            RuleFileException.class,
            () -> RuleFileParser.parse("t.yml", "groups:\n  - name: [a]\n    limit: x\n"));
    assertThat(e.errors())
        .containsExactly(
            "t.yml: yaml: unmarshal errors:\n"
                + "  line 2: cannot unmarshal !!seq into string\n"
                + "  line 3: cannot unmarshal !!str `x` into int");
    e =
        catchThrowableOfType(
            RuleFileException.class,
            () ->
                RuleFileParser.parse(
                    "t.yml", "groups:\n  - name: g\n    labels: {__name__: x}\n    rules: []\n"));
    assertThat(e.errors()).containsExactly("t.yml: invalid label name: __name__");
  }

  @Test
  void templateErrorsInLabelsAndAnnotations() {
    RuleFileException e =
        catchThrowableOfType(
            RuleFileException.class,
            () ->
                RuleFileParser.parse(
                    "t.yml",
                    """
                    groups:
                      - name: g
                        rules:
                          - alert: A
                            expr: up
                            labels: {team: "{{ nope }}"}
                            annotations: {a: "{{ $missing }}", b: "{{ if 1 }}x"}
                    """));
    assertThat(e.errors())
        .containsExactly(
            "t.yml: group \"g\", rule 1, \"A\": label \"team\": template: __alert_A:1: function \"nope\" not defined",
            "t.yml: group \"g\", rule 1, \"A\": annotation \"a\": template: __alert_A:1: undefined variable \"$missing\"",
            "t.yml: group \"g\", rule 1, \"A\": annotation \"b\": template: __alert_A:1: unexpected EOF");
  }

  @Test
  void aMissingFileIsReported() {
    assertThat(errors("absent.yml"))
        .containsExactly(
            p("absent.yml") + "open " + DIR.resolve("absent.yml") + ": no such file or directory");
  }

  private static String p(String fixture) {
    return DIR.resolve(fixture) + ": ";
  }

  private static List<String> errors(String fixture) {
    return catchThrowableOfType(
            RuleFileException.class, () -> RuleFileParser.parse(DIR.resolve(fixture)))
        .errors();
  }
}
