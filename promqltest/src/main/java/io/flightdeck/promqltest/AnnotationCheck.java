package io.flightdeck.promqltest;

import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Checks a result's warnings and infos against the eval's {@code expect warn|no_warn|info|no_info}
 * lines: with expect lines of a severity, at least one annotation of it must exist, each line must
 * match one and each annotation must match a line; {@code no_*} allows none; without lines for a
 * severity its annotations are not checked.
 */
final class AnnotationCheck {
  private static final Pattern POSITION = Pattern.compile(" \\(\\d+:\\d+\\)$");

  private AnnotationCheck() {}

  static Optional<String> check(EvalCommand eval, List<String> warnings, List<String> infos) {
    Optional<String> problem =
        severity(eval, Expectation.Kind.WARN, Expectation.Kind.NO_WARN, "warning", warnings);
    return problem.isPresent()
        ? problem
        : severity(eval, Expectation.Kind.INFO, Expectation.Kind.NO_INFO, "info", infos);
  }

  /**
   * The engine ends an annotation with its position in the query ({@code (1:25)}), as the HTTP API
   * shows it. Scripts of Prometheus 3.14 give the bare text, later ones the text with the position;
   * an expectation matches either form.
   */
  private static boolean matches(Expectation e, String annotation) {
    return e.matches(annotation) || e.matches(POSITION.matcher(annotation).replaceFirst(""));
  }

  private static Optional<String> severity(
      EvalCommand eval,
      Expectation.Kind expect,
      Expectation.Kind forbid,
      String name,
      List<String> actual) {
    List<Expectation> expected = eval.expectations(expect);
    if (!expected.isEmpty()) {
      if (actual.isEmpty()) {
        return Optional.of("expected " + name + " annotations, got none");
      }
      for (Expectation e : expected) {
        if (actual.stream().noneMatch(a -> matches(e, a))) {
          return Optional.of(
              "expected a "
                  + name
                  + " matching "
                  + describe(e)
                  + " (line "
                  + e.line()
                  + "), got "
                  + actual);
        }
      }
      for (String annotation : actual) {
        if (expected.stream().noneMatch(e -> matches(e, annotation))) {
          return Optional.of("unexpected " + name + " \"" + annotation + "\"");
        }
      }
    }
    if (!eval.expectations(forbid).isEmpty() && !actual.isEmpty()) {
      return Optional.of("expected no " + name + " annotations, got " + actual);
    }
    return Optional.empty();
  }

  private static String describe(Expectation e) {
    return e.message()
        .map(m -> "\"" + m + "\"")
        .or(() -> e.regex().map(p -> "/" + p.pattern() + "/"))
        .orElse("anything");
  }
}
