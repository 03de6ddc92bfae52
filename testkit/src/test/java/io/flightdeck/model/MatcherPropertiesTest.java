package io.flightdeck.model;

import static io.flightdeck.testkit.Generators.frequency;
import static io.flightdeck.testkit.Generators.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Coverage;
import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The regex matcher's fast paths against Java's regex, beside model's {@code MatcherTest}: here
 * because model cannot depend on testkit, which depends on model.
 */
class MatcherPropertiesTest {
  private static final Gen<String> LITERAL =
      Generators.of("a", "b", "ab", "-", "#", " ", "é", "😀", "\n")
          .list(0, 3)
          .map(parts -> String.join("", parts));

  @Test
  void fastPathsAgreeWithJavaRegex() {
    Coverage coverage =
        Property.tries(3000)
            .check(
                in -> {
                  String regex = in.draw("regex", regexes());
                  String candidate = in.draw("candidate", candidates(regex));
                  Matcher matcher = Matcher.regex("a", regex);
                  in.classify(
                      matcher.literalAlternatives() != null
                          ? "alternation"
                          : matcher.literalPrefix() != null ? "prefix" : "pattern");

                  boolean expected =
                      Pattern.compile("^(?:" + regex + ")$", Pattern.DOTALL)
                          .matcher(candidate)
                          .matches();

                  assertThat(matcher.matches(candidate))
                      .as("%s =~ %s", candidate, regex)
                      .isEqualTo(expected);
                  assertThat(Matcher.notRegex("a", regex).matches(candidate)).isEqualTo(!expected);
                });

    assertThat(coverage.percentage("alternation")).isGreaterThan(15);
    assertThat(coverage.percentage("prefix")).isGreaterThan(15);
    assertThat(coverage.percentage("pattern")).isGreaterThan(5);
  }

  /**
   * Regexes assembled from literal characters (a few that are special elsewhere, a newline and a
   * character outside the BMP), escaped metacharacters, {@code |}, {@code .} and {@code .*}: always
   * valid, often one of the fast-path shapes and sometimes a near miss.
   */
  private static Gen<String> regexes() {
    Gen<String> alternation = LITERAL.list(1, 4).map(parts -> String.join("|", parts));
    Gen<String> prefix = LITERAL.map(head -> head + ".*");
    Gen<String> tokens =
        Generators.of("a", "b", "\\.", "\\|", "\\*", "|", ".", ".*")
            .list(0, 5)
            .map(parts -> String.join("", parts));
    return frequency(
        weighted(4, alternation),
        weighted(4, prefix),
        weighted(1, Generators.constant(".*")),
        weighted(2, tokens));
  }

  /** Either random or built from the regex's own pieces, so that matches are frequent. */
  private static Gen<String> candidates(String regex) {
    Gen<String> piece = Generators.of(regex.replace(".*", "").split("\\|", -1));
    Gen<Boolean> extend = Generators.booleans();
    Gen<String> fromRegex =
        c -> {
          String part = piece.generate(c);
          String tail = LITERAL.generate(c);
          return extend.generate(c) ? part + tail : part;
        };
    return Generators.oneOf(fromRegex, LITERAL, Generators.of(regex, ""));
  }
}
