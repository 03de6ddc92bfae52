package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class AnnotationCheckTest {
  private static final String RATE_INFO =
      "PromQL info: metric might not be a counter, name does not end in _total/_sum/_count/_bucket:"
          + " \"m\"";

  private static EvalCommand eval(String body) {
    return ScriptParser.parse("t.test", "eval instant at 0 rate(m[1m])\n" + body)
        .commands(EvalCommand.class)
        .getFirst();
  }

  @Test
  void withoutExpectLinesAnnotationsAreNotChecked() {
    assertThat(AnnotationCheck.check(eval(""), List.of("w"), List.of(RATE_INFO))).isEmpty();
  }

  @Test
  void expectedMessageMustBeFoundAndNothingElse() {
    EvalCommand eval = eval("  expect info msg: " + RATE_INFO + "\n");
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO))).isEmpty();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of())).isPresent();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO, "PromQL info: other")))
        .isPresent();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO + "x"))).isPresent();
  }

  @Test
  void thePositionTheEngineAppendsIsNotPartOfTheText() {
    EvalCommand eval = eval("  expect info msg: " + RATE_INFO + "\n");
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO + " (1:6)"))).isEmpty();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO + " (x)"))).isPresent();
  }

  @Test
  void regexMatchesAnywhere() {
    EvalCommand eval = eval("  expect info regex: not be a counter\n");
    assertThat(AnnotationCheck.check(eval, List.of(), List.of(RATE_INFO))).isEmpty();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of("PromQL info: x"))).isPresent();
  }

  @Test
  void bareExpectCoversEveryAnnotationOfItsSeverity() {
    EvalCommand eval = eval("  expect warn\n");
    assertThat(AnnotationCheck.check(eval, List.of("a", "b"), List.of())).isEmpty();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of("info"))).isPresent();
  }

  @Test
  void noWarnAndNoInfoForbidTheirSeverityOnly() {
    EvalCommand eval = eval("  expect no_warn\n  expect no_info\n");
    assertThat(AnnotationCheck.check(eval, List.of(), List.of())).isEmpty();
    assertThat(AnnotationCheck.check(eval, List.of("w"), List.of())).isPresent();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of("i"))).isPresent();
    EvalCommand onlyNoWarn = eval("  expect no_warn\n");
    assertThat(AnnotationCheck.check(onlyNoWarn, List.of(), List.of("i"))).isEmpty();
  }

  @Test
  void legacyEvalWarnNeedsAWarning() {
    EvalCommand eval =
        ScriptParser.parse("t.test", "eval_warn instant at 0 m\n")
            .commands(EvalCommand.class)
            .getFirst();
    assertThat(AnnotationCheck.check(eval, List.of(), List.of())).isPresent();
    assertThat(AnnotationCheck.check(eval, List.of("w"), List.of())).isEmpty();
  }
}
