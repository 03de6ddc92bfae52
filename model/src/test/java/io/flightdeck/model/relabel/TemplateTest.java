package io.flightdeck.model.relabel;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's Regexp.Expand on the match of {@code (?P<first>a)(b)?(c)} against "ac". */
class TemplateTest {
  @ParameterizedTest(name = "[{0}] -> [{1}]")
  @CsvSource(
      delimiter = '|',
      value = {
        "$1|a",
        "${1}|a",
        "$first|a",
        "${first}|a",
        "$2|''", // group 2 did not take part
        "$3|c",
        "$4|''", // no such group
        "$1x|''", // the name is "1x"
        "${1}x|ax",
        "$$1|$1",
        "$|$",
        "${|${",
        "${1|${1",
        "${}|${}",
        "x$-y|x$-y",
        "$01|''", // a leading zero makes it a name, and there is no such name
        "$0|ac",
        "pre-$3-post|pre-c-post",
      })
  void expandsLikeGo(String template, String expected) {
    Pattern p = Pattern.compile("^(?:(?P<first>a)(b)?(c))$");
    Matcher m = p.matcher("ac");
    assertThat(m.matches()).isTrue();
    assertThat(Template.expand(template, m, p.namedGroups())).isEqualTo(expected);
  }
}
