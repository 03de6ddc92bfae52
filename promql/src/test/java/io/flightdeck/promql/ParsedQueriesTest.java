package io.flightdeck.promql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.ParseOptions;
import org.junit.jupiter.api.Test;

class ParsedQueriesTest {
  @Test
  void aRepeatedTextGetsTheTreeParsedTheFirstTime() {
    ParsedQueries cache = new ParsedQueries(4);
    Expr first = cache.parse("sum by (job) (rate(x[5m]))", ParseOptions.DEFAULT);
    assertThat(cache.parse("sum by (job) (rate(x[5m]))", ParseOptions.DEFAULT)).isSameAs(first);
    assertThat(cache.parse("sum by (job) (rate(x[1m]))", ParseOptions.DEFAULT))
        .isNotSameAs(first)
        .hasToString("sum by (job) (rate(x[1m]))");
  }

  @Test
  void holdsOnlyTheMostRecentlyUsedTexts() {
    ParsedQueries cache = new ParsedQueries(2);
    Expr a = cache.parse("a", ParseOptions.DEFAULT);
    cache.parse("b", ParseOptions.DEFAULT);
    cache.parse("a", ParseOptions.DEFAULT); // b is now the least recently used
    cache.parse("c", ParseOptions.DEFAULT);
    assertThat(cache.size()).isEqualTo(2);
    assertThat(cache.parse("a", ParseOptions.DEFAULT)).isSameAs(a);
    Expr b = cache.parse("b", ParseOptions.DEFAULT);
    assertThat(cache.parse("b", ParseOptions.DEFAULT)).isSameAs(b);
  }

  @Test
  void failuresAreReportedEveryTimeAndNotHeld() {
    ParsedQueries cache = new ParsedQueries(4);
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> cache.parse("sum(", ParseOptions.DEFAULT))
          .isInstanceOf(ParseException.class)
          .hasMessage("1:5: parse error: unclosed left parenthesis");
    }
    assertThat(cache.size()).isZero();
  }

  @Test
  void longTextsAreParsedButNotHeld() {
    ParsedQueries cache = new ParsedQueries(4);
    String longQuery = "x{l=\"" + "v".repeat(ParsedQueries.MAX_QUERY_LENGTH) + "\"}";
    assertThat(cache.parse(longQuery, ParseOptions.DEFAULT)).isNotNull();
    assertThat(cache.size()).isZero();
  }
}
