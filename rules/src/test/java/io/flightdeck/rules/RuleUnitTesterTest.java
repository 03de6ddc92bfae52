package io.flightdeck.rules;

import static io.flightdeck.rules.RulePacksTest.print;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Our tester prints exactly what promtool printed for the same files (golden files beside them).
 */
class RuleUnitTesterTest {
  private static final Path DIR = Path.of("src/test/resources/rules/unittest");

  @ParameterizedTest
  @CsvSource({"passing_test, 0", "failing_test, 1", "bad_field_test, 1", "bad_rules_test, 1"})
  void matchesPromtool(String name, int exitCode) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new RuleUnitTester(TestStorage.factory())
            .run(List.of(DIR.resolve(name + ".yml")), print(out), print(err));
    assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo(golden(name + ".promtool.stderr"));
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(golden(name + ".promtool.stdout"));
    assertThat(code).isEqualTo(exitCode);
  }

  @Test
  void groupEvalOrderAndMissingRuleFiles(@TempDir Path dir) throws IOException {
    Files.writeString(
        dir.resolve("r.yml"),
        """
        groups:
          - name: b
            rules:
              - record: twice
                expr: once * 2
          - name: a
            rules:
              - record: once
                expr: vector(1)
        """);
    Files.writeString(
        dir.resolve("t.yml"),
        """
        rule_files: [r.yml, nothing*.yml]
        group_eval_order: [a, b]
        tests:
          - promql_expr_test:
              - expr: twice
                eval_time: 0m
                exp_samples:
                  - labels: 'twice'
                    value: 2
        """);
    Files.writeString(dir.resolve("u.yml"), "rule_files: [r.yml]\ngroup_eval_order: [a, a]\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code =
        new RuleUnitTester(TestStorage.factory())
            .run(List.of(dir.resolve("t.yml"), dir.resolve("u.yml")), print(out), print(err));
    assertThat(err.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "  WARNING: no file match pattern "
                + dir.resolve("nothing*.yml")
                + "\n  FAILED:\ngroup name repeated in evaluation order: a\n");
    assertThat(out.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            "Unit Testing:  %s\n  SUCCESS\n\nUnit Testing:  %s\n\n\n"
                .formatted(dir.resolve("t.yml"), dir.resolve("u.yml")));
    assertThat(code).isEqualTo(1);
  }

  /** promtool ran inside the fixture directory; we run from the module, so paths gain a prefix. */
  private static String golden(String file) throws IOException {
    return Files.readString(DIR.resolve(file))
        .replace("Unit Testing:  ", "Unit Testing:  " + DIR + "/")
        .replace("broken_rules.yml", DIR + "/broken_rules.yml");
  }
}
