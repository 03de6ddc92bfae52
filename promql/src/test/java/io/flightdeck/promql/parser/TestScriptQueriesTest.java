package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every query of Prometheus's conformance scripts parses, prints canonically, and parses back to
 * the same tree. None of the blocks that expect a failure expects a parse error: Prometheus parses
 * all queries when it loads a script, so those failures all happen during evaluation (label-set
 * collisions, many-to-many matching, a NaN parameter, an invalid label name given as a string).
 */
class TestScriptQueriesTest {
  private static final List<TestScript> SCRIPTS = TestScript.all();

  @Test
  void readsEveryEvalBlock() {
    assertThat(SCRIPTS).hasSize(1061);
    assertThat(SCRIPTS.stream().filter(TestScript::expectsFailure)).hasSize(21);
  }

  @TestFactory
  Stream<DynamicTest> everyQueryParses() {
    return SCRIPTS.stream()
        .map(
            s ->
                dynamicTest(
                    s.toString(),
                    () -> {
                      if (expectsParseError(s)) {
                        assertThatThrownBy(() -> parse(s.query()))
                            .isInstanceOf(ParseException.class)
                            .hasMessage(s.failure().message());
                      } else {
                        assertThat(parse(s.query())).isNotNull();
                      }
                    }));
  }

  @TestFactory
  Stream<DynamicTest> everyQueryRoundTrips() {
    return SCRIPTS.stream()
        .filter(s -> !expectsParseError(s))
        .map(
            s ->
                dynamicTest(
                    s.toString(),
                    () -> {
                      Expr parsed = parse(s.query());
                      String printed = parsed.toString();
                      Expr reparsed = parse(printed);
                      assertThat(StructuralEquality.equal(parsed, reparsed))
                          .as("%s printed as %s parses back to %s", s.query(), printed, reparsed)
                          .isTrue();
                      assertThat(reparsed.toString()).isEqualTo(printed);
                    }));
  }

  @Test
  void failuresExpectedByTheScriptsHappenAtEvaluation() {
    List<String> failing =
        SCRIPTS.stream().filter(TestScript::expectsFailure).map(TestScript::query).toList();
    assertThat(failing)
        .contains(
            "topk(NaN, non_existent)",
            "count_values(\"a\\xc5z\", version)",
            "label_join(dup, \"label\", \"\", \"this\")",
            "-{job=\"api\"}")
        .allSatisfy(query -> assertThat(parse(query)).isNotNull());
  }

  private static boolean expectsParseError(TestScript s) {
    return s.expectsFailure()
        && s.failure().message() != null
        && s.failure().message().contains("parse error");
  }

  private static Expr parse(String query) {
    return PromQLParser.parse(query, ParseOptions.DEFAULT);
  }
}
