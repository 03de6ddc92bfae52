package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * Examples; that the fast paths agree with Java's regex on generated regexes is a property in
 * testkit's test tree ({@code MatcherPropertiesTest}), since model cannot depend on testkit.
 */
class MatcherTest {

  @Test
  void equalAndNotEqualCompareWholeValues() {
    assertThat(Matcher.equal("job", "api").matches("api")).isTrue();
    assertThat(Matcher.equal("job", "api").matches("api2")).isFalse();
    assertThat(Matcher.notEqual("job", "api").matches("api")).isFalse();
    assertThat(Matcher.notEqual("job", "api").matches("")).isTrue();
  }

  @Test
  void regexAndNotRegexAreComplements() {
    assertThat(Matcher.regex("code", "5..").matches("503")).isTrue();
    assertThat(Matcher.regex("code", "5..").matches("404")).isFalse();
    assertThat(Matcher.notRegex("code", "5..").matches("503")).isFalse();
    assertThat(Matcher.notRegex("code", "5..").matches("404")).isTrue();
  }

  @Test
  void regexIsAnchoredAtBothEnds() {
    assertThat(Matcher.regex("a", "b").matches("ab")).isFalse();
    assertThat(Matcher.regex("a", "b").matches("ba")).isFalse();
    assertThat(Matcher.regex("a", "b").matches("b")).isTrue();
    // Anchoring must wrap the whole alternation, not only its first and last branch.
    assertThat(Matcher.regex("a", "x|y").matches("xy")).isFalse();
    assertThat(Matcher.regex("a", "x+|y").matches("xxz")).isFalse();
    assertThat(Matcher.notRegex("a", "b").matches("ab")).isTrue();
  }

  @Test
  void dotMatchesNewlinesAsInPrometheus3() {
    assertThat(Matcher.regex("a", "x.y").matches("x\ny")).isTrue();
    assertThat(Matcher.regex("a", "foo.*").matches("foo\nbar")).isTrue();
  }

  @Test
  void recognisesTheShapesTheIndexCanAnswerFromPostings() {
    assertThat(Matcher.regex("a", "x|y|z").literalAlternatives())
        .containsExactlyInAnyOrder("x", "y", "z");
    assertThat(Matcher.regex("a", "foo.*").literalPrefix()).isEqualTo("foo");
    assertThat(Matcher.regex("a", "x+|y").literalAlternatives()).isNull();
    assertThat(Matcher.regex("a", "fo+.*").literalPrefix()).isNull();
    assertThat(Matcher.regex("a", "x|foo.*").literalPrefix()).isNull();
    assertThat(Matcher.regex("a", "foo\\.*").literalPrefix()).isNull();
  }

  @Test
  void matchesEmptyTellsWhetherSeriesWithoutTheLabelAreSelected() {
    assertThat(Matcher.regex("a", ".*").matchesEmpty()).isTrue();
    assertThat(Matcher.regex("a", ".+").matchesEmpty()).isFalse();
    assertThat(Matcher.regex("a", "x|").matchesEmpty()).isTrue();
    assertThat(Matcher.regex("a", "x").matchesEmpty()).isFalse();
    assertThat(Matcher.notRegex("a", ".+").matchesEmpty()).isTrue();
    assertThat(Matcher.equal("a", "").matchesEmpty()).isTrue();
    assertThat(Matcher.notEqual("a", "").matchesEmpty()).isFalse();
    assertThat(Matcher.notEqual("a", "x").matchesEmpty()).isTrue();
  }

  @Test
  void invalidRegexIsAnIllegalArgumentNamingTheRegex() {
    assertThatThrownBy(() -> Matcher.regex("job", "api(unclosed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("`api(unclosed`")
        .hasCauseInstanceOf(com.google.re2j.PatternSyntaxException.class);
    assertThatThrownBy(() -> Matcher.notRegex("job", "*x"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("missing argument to repetition operator");
  }

  @Test
  void equalityCoversTypeNameAndValue() {
    assertThat(Matcher.regex("a", "b")).isEqualTo(Matcher.of(Matcher.Type.REGEX, "a", "b"));
    assertThat(Matcher.regex("a", "b")).hasSameHashCodeAs(Matcher.of(Matcher.Type.REGEX, "a", "b"));
    assertThat(Matcher.regex("a", "b")).isNotEqualTo(Matcher.notRegex("a", "b"));
    assertThat(Matcher.regex("a", "b")).isNotEqualTo(Matcher.regex("c", "b"));
    assertThat(Matcher.regex("a", "b")).isNotEqualTo(Matcher.regex("a", "c"));
  }

  @Test
  void toStringIsPromqlSyntax() {
    assertThat(Matcher.notRegex("job", "a|b")).hasToString("job!~\"a|b\"");
    assertThat(Matcher.equal("path", "say \"hi\"")).hasToString("path=\"say \\\"hi\\\"\"");
  }
}
