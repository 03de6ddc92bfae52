package io.flightdeck.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;
import net.jqwik.api.statistics.Statistics;
import org.junit.jupiter.api.Test;

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

  @Property(tries = 3000)
  void fastPathsAgreeWithJavaRegex(
      @ForAll("regexAndCandidate") Tuple2<String, String> regexAndCandidate) {
    String regex = regexAndCandidate.get1();
    String candidate = regexAndCandidate.get2();
    Matcher matcher = Matcher.regex("a", regex);
    Statistics.collect(
        matcher.literalAlternatives() != null
            ? "alternation"
            : matcher.literalPrefix() != null ? "prefix" : "pattern");

    boolean expected =
        Pattern.compile("^(?:" + regex + ")$", Pattern.DOTALL).matcher(candidate).matches();

    assertThat(matcher.matches(candidate)).as("%s =~ %s", candidate, regex).isEqualTo(expected);
    assertThat(Matcher.notRegex("a", regex).matches(candidate)).isEqualTo(!expected);
    Statistics.coverage(
        coverage -> {
          coverage.check("alternation").percentage(p -> p > 15);
          coverage.check("prefix").percentage(p -> p > 15);
          coverage.check("pattern").percentage(p -> p > 5);
        });
  }

  /**
   * Regexes assembled from literal characters (a few that are special elsewhere, a newline and a
   * character outside the BMP), escaped metacharacters, {@code |}, {@code .} and {@code .*}: always
   * valid, often one of the fast-path shapes and sometimes a near miss. The candidate is either
   * random or built from the regex's own pieces, so that matches are frequent.
   */
  @Provide
  Arbitrary<Tuple2<String, String>> regexAndCandidate() {
    Arbitrary<String> literal =
        Arbitraries.of("a", "b", "ab", "-", "#", " ", "é", "😀", "\n")
            .list()
            .ofMaxSize(3)
            .map(parts -> String.join("", parts));
    Arbitrary<String> alternation =
        literal.list().ofMinSize(1).ofMaxSize(4).map(parts -> String.join("|", parts));
    Arbitrary<String> prefix = literal.map(head -> head + ".*");
    Arbitrary<String> tokens =
        Arbitraries.of("a", "b", "\\.", "\\|", "\\*", "|", ".", ".*")
            .list()
            .ofMaxSize(5)
            .map(parts -> String.join("", parts));
    Arbitrary<String> regex =
        Arbitraries.frequencyOf(
            Tuple.of(4, alternation),
            Tuple.of(4, prefix),
            Tuple.of(1, Arbitraries.just(".*")),
            Tuple.of(2, tokens));
    return regex.flatMap(
        re -> {
          Arbitrary<String> piece = Arbitraries.of(re.replace(".*", "").split("\\|", -1));
          Arbitrary<String> fromRegex =
              Combinators.combine(piece, literal, Arbitraries.of(true, false))
                  .as((part, tail, extend) -> extend ? part + tail : part);
          Arbitrary<String> candidate =
              Arbitraries.oneOf(fromRegex, literal, Arbitraries.of(re, ""));
          return candidate.map(c -> Tuple.of(re, c));
        });
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
