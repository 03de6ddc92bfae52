package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Label regexes as Prometheus's: RE2 syntax and errors, anchoring that user text cannot escape,
 * linear-time matching, and fast paths that agree with the regex engine.
 */
class MatcherRegexTest {

  @Test
  @Timeout(value = 60, unit = TimeUnit.SECONDS)
  void catastrophicBacktrackingPatternsMatchInLinearTime() {
    // Each of these takes exponential time, or a power of the length, in a backtracking engine.
    String longA = "a".repeat(5_000);
    assertThat(Matcher.regex("k", "(.*a){25}b").matches(longA)).isFalse();
    assertThat(Matcher.regex("k", "(a+)+b").matches(longA)).isFalse();
    assertThat(Matcher.regex("k", "(a|aa)+b").matches(longA)).isFalse();
    assertThat(Matcher.regex("k", "(.*){20}x").matches("y".repeat(5_000))).isFalse();
    assertThat(Matcher.regex("k", "(.*a){25}").matches(longA)).isTrue();
  }

  @Test
  void errorsAreGosNamingTheUsersText() {
    assertThatThrownBy(() -> Matcher.regex("job", "api(unclosed"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: missing closing ): `api(unclosed`");
    assertThatThrownBy(() -> Matcher.notRegex("job", "*x"))
        .hasMessage("error parsing regexp: missing argument to repetition operator: `*`");
    // Backreferences and lookaround are not RE2.
    assertThatThrownBy(() -> Matcher.regex("job", "(a)\\1"))
        .hasMessageStartingWith("error parsing regexp: invalid escape sequence");
    assertThatThrownBy(() -> Matcher.regex("job", "a(?=b)"))
        .hasMessageStartingWith("error parsing regexp:");
  }

  @Test
  void userTextCannotEscapeTheAnchoringGroup() {
    // "^(?s:a)|(?:b)$" would compile; Prometheus checks the text alone first and refuses it.
    assertThatThrownBy(() -> Matcher.regex("job", "a)|(?:b"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("error parsing regexp: unexpected ): `a)|(?:b`");
  }

  @Test
  void dotMatchesNewlinesUnlessTheRegexSaysOtherwise() {
    assertThat(Matcher.regex("a", "x.y").matches("x\ny")).isTrue();
    assertThat(Matcher.regex("a", "(?-s)x.y").matches("x\ny")).isFalse();
    assertThat(Matcher.regex("a", ".+").matches("\n")).isTrue();
  }

  @Test
  void goSyntaxThatJavaLacksWorks() {
    assertThat(Matcher.regex("a", "\\pL+").matches("héllo")).isTrue();
    assertThat(Matcher.regex("a", "[[:digit:]]+").matches("123")).isTrue();
    assertThat(Matcher.regex("a", "(?P<n>x)y").matches("xy")).isTrue();
    assertThat(Matcher.regex("a", "(?i)GPU").matches("gpu")).isTrue();
  }

  @Test
  void literalShapesAreRecognisedWithEscapesAndGroups() {
    assertThat(Matcher.regex("a", "x\\.y|z").literalAlternatives())
        .containsExactlyInAnyOrder("x.y", "z");
    assertThat(Matcher.regex("a", "(x|y)").literalAlternatives())
        .containsExactlyInAnyOrder("x", "y");
    assertThat(Matcher.regex("a", "(?:x|y)").literalAlternatives())
        .containsExactlyInAnyOrder("x", "y");
    assertThat(Matcher.regex("a", "x\\|y").literalAlternatives()).containsExactly("x|y");
    assertThat(Matcher.regex("a", "(x)|(y)").literalAlternatives()).isNull();
    assertThat(Matcher.regex("a", "x\\d").literalAlternatives()).isNull();
    assertThat(Matcher.regex("a", "gpu\\..*").literalPrefix()).isEqualTo("gpu.");
    assertThat(Matcher.regex("a", "gpu\\\\.*").literalPrefix()).isEqualTo("gpu\\");
    assertThat(Matcher.regex("a", "gpu\\.*").literalPrefix()).isNull();
    assertThat(Matcher.regex("a", ".*?x").literalPrefix()).isNull();
  }

  /** Every fast path against the regex engine on the same values: they must never disagree. */
  @Test
  void fastPathsAgreeWithTheRegexEngine() {
    List<String> regexes =
        List.of(
            ".*",
            ".+",
            "a|b|",
            "(a|bc)",
            "(?:a|\\.)",
            "ab.*",
            ".*ab",
            ".*ab.*",
            ".*\\..*",
            "a\\.*",
            ".*.*",
            "a\\\\.*",
            ".*a|b",
            "a.*|b",
            "(a)|(b)",
            "é.*",
            ".*😀");
    List<String> values =
        List.of(
            "", "a", "b", "c", "ab", "abc", "cab", "xabx", ".", "a.", "a..", "a\\", "a\\b", "\n",
            "ab\n", "\nab", "é", "éa", "x😀", "😀", ".a.", "bc");
    for (String regex : regexes) {
      Matcher fast = Matcher.regex("l", regex);
      com.google.re2j.Pattern engine = com.google.re2j.Pattern.compile("^(?s:" + regex + ")$");
      for (String value : values) {
        boolean expected = engine.matcher(value).matches();
        assertThat(fast.matches(value)).as("%s =~ %s", value, regex).isEqualTo(expected);
        assertThat(Matcher.notRegex("l", regex).matches(value)).isEqualTo(!expected);
      }
    }
  }
}
