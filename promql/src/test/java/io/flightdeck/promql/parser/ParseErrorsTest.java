package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad queries and the exact messages Prometheus 3.14 gives for them (several taken from the
 * expectations of its parser tests, the rest worked out from its grammar).
 */
class ParseErrorsTest {

  /** One case per line: the query, " => ", the message. Queries needing escapes are below. */
  private static final String CASES =
      """
      1+ => 1:3: parse error: unexpected end of input
      . => 1:1: parse error: unexpected character: '.'
      2.5. => 1:1: parse error: bad number or duration syntax: "2.5."
      100..4 => 1:1: parse error: bad number or duration syntax: "100.."
      0deadbeef => 1:1: parse error: bad number or duration syntax: "0de"
      *1 => 1:1: parse error: unexpected <op:*>
      (1)) => 1:5: parse error: unexpected right parenthesis ')'
      ((1) => 1:5: parse error: unclosed left parenthesis
      ( => 1:2: parse error: unclosed left parenthesis
      1 and 1 => 1:1: parse error: set operator "and" not allowed in binary scalar expression
      foo or 1 => 1:1: parse error: set operator "or" not allowed in binary scalar expression
      1 == 1 => 1:3: parse error: comparisons between scalars must use BOOL modifier
      1 !~ 1 => 1:3: parse error: unexpected character after '!': '~'
      1 =~ 1 => 1:3: parse error: unexpected character after '=': '~'
      foo ! bar => 1:5: parse error: unexpected character after '!': ' '
      -"string" => 1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "string"
      -test[5m] => 1:1: parse error: unary expression only allowed on expressions of type scalar or instant vector, got "range vector"
      @@ => 1:1: parse error: unexpected <op:@>
      -= => 1:2: parse error: unexpected "="
      ++-++-+-+-< => 1:11: parse error: unexpected <op:<>
      a = b => 1:3: parse error: unexpected "="
      1 offset 1d => 1:1: parse error: offset modifier must be preceded by an instant vector selector or range vector selector or a subquery
      foo offset 1s offset 2s => 1:1: parse error: offset may not be set multiple times
      a - on(b) ignoring(c) d => 1:11: parse error: unexpected <ignoring>
      foo + group_left(baz) bar => 1:7: parse error: unexpected <group_left>
      1 or on(bar) foo => 1:1: parse error: vector matching only allowed between instant vectors
      foo and on(bar) group_left(baz) bar => 1:1: parse error: no grouping allowed for "and" operation
      foo unless on(bar) group_right(baz) bar => 1:1: parse error: no grouping allowed for "unless" operation
      a + on(x) group_left(x) b => 1:3: parse error: label "x" must not occur in ON and GROUP clause at once
      foo + bool bar => 1:5: parse error: bool modifier can only be used on comparison operators
      a + on b => 1:8: parse error: unexpected identifier "b" in grouping opts, expected "("
      x > bool => 1:9: parse error: unexpected end of input
      foo @ +Inf => 1:1: parse error: timestamp out of bounds for @ modifier: +Inf
      foo @ NaN => 1:1: parse error: timestamp out of bounds for @ modifier: NaN
      foo @ 1e19 => 1:1: parse error: timestamp out of bounds for @ modifier: 10000000000000000000.000000
      foo @ bar => 1:7: parse error: unexpected identifier "bar" in @, expected timestamp
      foo @ start => 1:12: parse error: unexpected end of input in @, expected timestamp
      foo[1m] @ 1 @ 2 => 1:1: parse error: @ <timestamp> may not be set multiple times
      foo @ 1 [5m] => 1:9: parse error: no @ modifiers allowed before range
      rate(some_metric[5m]) @ 1234 => 1:1: parse error: @ modifier must be preceded by an instant vector selector or range vector selector or a subquery
      { => 1:2: parse error: unexpected end of input inside braces
      } => 1:1: parse error: unexpected character: '}'
      some{ => 1:6: parse error: unexpected end of input inside braces
      some_metric{a=b} => 1:15: parse error: unexpected identifier "b" in label matching, expected string
      some_metric{a:b="b"} => 1:14: parse error: unexpected character inside braces: ':'
      foo{1} => 1:5: parse error: unexpected character inside braces: '1'
      foo{gibberish} => 1:14: parse error: unexpected "}" in label matching, expected label matching operator
      foo{,} => 1:5: parse error: unexpected "," in label matching, expected identifier or "}"
      foo{a="b",,} => 1:11: parse error: unexpected "," in label matching, expected identifier or "}"
      foo{__name__="bar" lol} => 1:20: parse error: unexpected identifier "lol" in label matching, expected "," or "}"
      foo{"a"=} => 1:9: parse error: unexpected "}" in label matching, expected string
      foo{"a" "b"} => 1:9: parse error: unexpected string "\\"b\\"" in label matching, expected "," or "}"
      foo{a!b} => 1:6: parse error: unexpected character after '!' inside braces: 'b'
      foo{{ => 1:5: parse error: unexpected left brace '{'
      foo{a="b"} {c="d"} => 1:12: parse error: unexpected "{"
      {} => 1:1: parse error: vector selector must contain at least one non-empty matcher
      {x=""} => 1:1: parse error: vector selector must contain at least one non-empty matcher
      {x=~".*"} => 1:1: parse error: vector selector must contain at least one non-empty matcher
      {x!="a"} => 1:1: parse error: vector selector must contain at least one non-empty matcher
      foo{__name__="bar"} => 1:1: parse error: metric name must not be set twice: "foo" or "bar"
      foo[5mm] => 1:5: parse error: bad number or duration syntax: "5mm"
      foo[5m1] => 1:5: parse error: bad number or duration syntax: "5m1"
      foo[5y1hs] => 1:5: parse error: unknown unit "hs" in duration "5y1hs"
      foo[5m1h] => 1:5: parse error: not a valid duration string: "5m1h"
      foo[9999999999y] => 1:5: parse error: duration out of range
      foo[0m] => 1:5: parse error: duration must be greater than 0
      foo[-1] => 1:5: parse error: duration must be greater than 0
      foo["5m"] => 1:5: parse error: unexpected character in duration expression: '"'
      foo[abc] => 1:5: parse error: unexpected character in duration expression: 'a'
      foo[[ => 1:5: parse error: unexpected character in duration expression: '['
      foo] => 1:4: parse error: unexpected right bracket ']'
      foo[] => 1:5: parse error: unexpected "]" in subquery or range selector, expected number, duration, step(), or range()
      foo[step] => 1:9: parse error: unexpected "]" in subquery or range selector, expected number, duration, step(), or range()
      foo[5m,] => 1:7: parse error: unexpected "," in subquery or range, expected ":" or "]"
      foo[5m:,] => 1:8: parse error: unexpected "," in subquery selector, expected number, duration, step(), range(), or "]"
      foo[5m:1m 1m] => 1:11: parse error: unexpected duration "1m" in subquery selector, expected "]"
      foo[1m:2m:3m] => 1:10: parse error: unexpected colon ':'
      foo[:1m] => 1:6: parse error: unexpected colon before duration in duration expression
      foo[5s x 5s] => 1:8: parse error: unexpected character: 'x', expected ':'
      foo[5m => 1:7: parse error: unclosed left bracket
      foo{bar="baz"}[ => 1:16: parse error: unexpected end of input in duration expression
      foo[5s/0d] => 1:7: parse error: division by zero
      foo[5s%0d] => 1:7: parse error: modulo by zero
      foo[step()/0d] => 1:11: parse error: division by zero
      foo[9.5e10] => 1:5: parse error: duration out of range
      foo offset (4d/0) => 1:15: parse error: division by zero
      foo offset 9.5e10 => 1:12: parse error: duration out of range
      some_metric[5m] OFFSET 1mm => 1:24: parse error: bad number or duration syntax: "1mm"
      some_metric[5m] OFFSET => 1:23: parse error: unexpected end of input in offset, expected number, duration, step(), or range()
      foo offset bar => 1:12: parse error: unexpected identifier "bar" in offset, expected number, duration, step(), or range()
      foo offset (1m bar) => 1:16: parse error: unexpected identifier "bar" in offset, expected number, duration, step(), or range()
      max_over_time(foo[5m:1m] offset -) => 1:34: parse error: unexpected ")" in offset, expected number, duration, step(), or range()
      some_metric OFFSET 1m[5m] => 1:22: parse error: no offset modifiers allowed before range
      (foo + bar)[5m] => 1:12: parse error: ranges only allowed for vector selectors
      rate(food[1m])[1h] offset 1h => 1:15: parse error: ranges only allowed for vector selectors
      test[5d] OFFSET 10s [10m:5s] => 1:1: parse error: subquery is only allowed on instant vector, got matrix instead
      x[5m][1m:] => 1:1: parse error: subquery is only allowed on instant vector, got matrix instead
      sum by ("foo)(some_metric{}) => 1:9: parse error: unterminated quoted string
      sum without(==)(some_metric) => 1:13: parse error: unexpected <op:==> in grouping opts, expected label
      sum without(,)(some_metric) => 1:13: parse error: unexpected "," in grouping opts, expected label
      sum without(foo,,)(some_metric) => 1:17: parse error: unexpected "," in grouping opts, expected label
      sum by (without) (x) => 1:9: parse error: unexpected <without> in grouping opts, expected label
      sum by ("") (x) => 1:9: parse error: invalid label name for grouping: ""
      sum(x) by (a b) => 1:14: parse error: unexpected identifier "b" in grouping opts, expected "," or ")"
      sum(x) without => 1:15: parse error: unexpected end of input in grouping opts, expected "("
      sum some_metric by (test) => 1:5: parse error: unexpected identifier "some_metric"
      sum (some_metric) by test => 1:22: parse error: unexpected identifier "test" in grouping opts, expected "("
      sum by (a) foo => 1:12: parse error: unexpected identifier "foo" in aggregation
      sum () by (test) => 1:1: parse error: no arguments for aggregate expression provided
      MIN keep_common (some_metric) => 1:5: parse error: unexpected identifier "keep_common"
      MIN (some_metric) keep_common => 1:19: parse error: unexpected identifier "keep_common"
      sum (some_metric) without (test) by (test) => 1:34: parse error: unexpected <by>
      sum(x) without (a) by (b) => 1:20: parse error: unexpected <by>
      sum(foo bar) => 1:9: parse error: unexpected identifier "bar" in aggregation
      sum(rate(foo[5m]) + ) => 1:21: parse error: unexpected ")" in aggregation
      rate(foo[5m] bar) => 1:14: parse error: unexpected identifier "bar"
      topk(some_metric) => 1:1: parse error: wrong number of arguments for aggregate expression provided, expected 2, got 1
      topk(some_metric,) => 1:17: parse error: trailing commas not allowed in function call args
      rate(x,,y) => 1:7: parse error: trailing commas not allowed in function call args
      rate(,) => 1:6: parse error: unexpected ","
      topk(some_metric, other_metric) => 1:6: parse error: expected type scalar in aggregation parameter, got instant vector
      count_values(5, other_metric) => 1:14: parse error: expected type string in aggregation parameter, got scalar
      sum("a") => 1:5: parse error: expected type instant vector in aggregation expression, got string
      floor() => 1:1: parse error: expected 1 argument(s) in call to "floor", got 0
      floor(some_metric, other_metric) => 1:1: parse error: expected 1 argument(s) in call to "floor", got 2
      floor(1) => 1:7: parse error: expected type instant vector in call to function "floor", got scalar
      hour(some_metric, some_metric, some_metric) => 1:1: parse error: expected at most 1 argument(s) in call to "hour", got 3
      label_join(a, "b") => 1:1: parse error: expected at least 3 argument(s) in call to "label_join", got 2
      time(some_metric) => 1:1: parse error: expected 0 argument(s) in call to "time", got 1
      vector("a") => 1:8: parse error: expected type scalar in call to function "vector", got string
      non_existent_function_far_bar() => 1:1: parse error: unknown function with name "non_existent_function_far_bar"
      Rate(x[5m]) => 1:1: parse error: unknown function with name "Rate"
      a>b() => 1:3: parse error: unknown function with name "b"
      rate(some_metric) => 1:6: parse error: expected type range vector in call to function "rate", got instant vector
      rate(avg) => 1:6: parse error: expected type range vector in call to function "rate", got instant vector
      info(x, y) => 1:9: parse error: expected label selectors only, got vector selector instead
      info(x, {a="b"} == 1) => 1:9: parse error: expected label selectors only
      "a" + 1 => 1:1: parse error: binary expression must contain only scalar and instant vector types
      1 + foo[5m] => 1:5: parse error: binary expression must contain only scalar and instant vector types
      foo bar => 1:5: parse error: unexpected identifier "bar"
      foo 1 => 1:5: parse error: unexpected number "1"
      foo 5m => 1:5: parse error: unexpected duration "5m"
      foo "ab" => 1:5: parse error: unexpected string "\\"ab\\""
      foo "a long string literal" => 1:5: parse error: unexpected string "\\"a long st"...
      foo:bar(x) => 1:8: parse error: unexpected "("
      1 + 2 3 => 1:7: parse error: unexpected number "3"
      a ^ b ^ => 1:8: parse error: unexpected end of input
      - => 1:2: parse error: unexpected end of input
      `abc => 1:1: parse error: unterminated raw string
      "abc => 1:1: parse error: unterminated quoted string
      "\\c" => 1:1: parse error: unknown escape sequence U+0063 'c'
      "\\x." => 1:1: parse error: illegal character U+002E '.' in escape sequence
      "\\uD800" => 1:1: parse error: escape sequence is an invalid Unicode code point
      "\\400" => 1:1: parse error: escape sequence is an invalid Unicode code point
      '\\"' => 1:1: parse error: unknown escape sequence U+0022 '"'
      999e999 => 1:1: parse error: error parsing number: strconv.ParseFloat: parsing "999e999": value out of range
      0x => 1:1: parse error: error parsing number: strconv.ParseFloat: parsing "0x": invalid syntax
      a + fill(b) => 1:10: parse error: unexpected identifier "b"
      1[5m] smoothed => 1:2: parse error: ranges only allowed for vector selectors
      a[5m:1m] anchored => 1:1: parse error: anchored modifier is not supported for subqueries
      a[5m:] smoothed => 1:1: parse error: smoothed modifier is not supported for subqueries
      (a) anchored => 1:1: parse error: anchored modifier not implemented
      a[5m] anchored smoothed => 1:1: parse error: anchored and smoothed modifiers cannot be used together
      a smoothed anchored => 1:1: parse error: anchored and smoothed modifiers cannot be used together
      1 + fill(0) a => 1:1: parse error: filling in missing series only allowed between instant vectors
      a and fill(0) b => 1:1: parse error: filling in missing series not allowed for set operators
      """;

  static Stream<Arguments> cases() {
    Stream<Arguments> table =
        Arrays.stream(CASES.split("\n"))
            .map(
                line -> {
                  int arrow = line.indexOf(" => ");
                  return Arguments.of(line.substring(0, arrow), line.substring(arrow + 4));
                });
    Stream<Arguments> special =
        Stream.of(
            Arguments.of("", "unknown position: parse error: no expression found in input"),
            Arguments.of("# just a comment\n\n", "1:1: parse error: no expression found in input"),
            Arguments.of("   ", "1:1: parse error: no expression found in input"),
            Arguments.of("foo\n+\n", "3:1: parse error: unexpected end of input"),
            Arguments.of(
                "sum(\nfoo\n bar)",
                "3:2: parse error: unexpected identifier \"bar\" in aggregation"),
            Arguments.of("\"ab\ncd\"", "1:1: parse error: unterminated quoted string"),
            Arguments.of(
                "label_replace(a, `b`, `c\uDCFF`, `d`, `.*`)",
                "1:23: parse error: invalid UTF-8 rune"),
            Arguments.of("some_metric{a=\"\uDCFF\"}", "1:15: parse error: invalid UTF-8 rune"),
            Arguments.of(
                "99999999999999999999999999999999999999999999999999999999999999999999999999999999"
                    + "9".repeat(250),
                "1:1: parse error: error parsing number: strconv.ParseFloat: parsing \""
                    + "9".repeat(330)
                    + "\": value out of range"));
    return Stream.concat(table, special);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("cases")
  void reportsPrometheusMessage(String query, String message) {
    assertThatThrownBy(() -> PromQLParser.parse(query, ParseOptions.DEFAULT))
        .isInstanceOf(ParseException.class)
        .hasMessage(message);
  }

  @Test
  void carriesPositionAndDetail() {
    ParseException e = parseError("sum(foo bar)");
    assertThat(e.position()).isEqualTo(new PositionRange(8, 11));
    assertThat(e.detail()).isEqualTo("unexpected identifier \"bar\" in aggregation");
    assertThat(e.query()).isEqualTo("sum(foo bar)");
  }

  @Test
  void countsPositionsInBytes() {
    ParseException e = parseError("{\"é\"=\"x\"} bar");
    assertThat(e.position()).isEqualTo(new PositionRange(11, 14));
    assertThat(e.getMessage()).startsWith("1:12: ");
  }

  @Test
  void reportsInvalidRegularExpressionsAtTheMatcher() {
    ParseException e = parseError("foo{a=~\"(\"}");
    assertThat(e.position()).isEqualTo(new PositionRange(4, 10));
    assertThat(e.getMessage()).startsWith("1:5: parse error: ");
  }

  @Test
  void rejectsExperimentalFunctionsWhenDisabled() {
    ParseOptions stock = new ParseOptions(false, false, false);
    assertThatThrownBy(() -> PromQLParser.parse("limitk(1, x)", stock))
        .hasMessage(
            "1:1: parse error: limitk() is experimental and must be enabled with"
                + " --enable-feature=promql-experimental-functions");
    assertThatThrownBy(() -> PromQLParser.parse("sort_by_label(x, \"a\")", stock))
        .hasMessage("1:1: parse error: function \"sort_by_label\" is not enabled");
    assertThat(PromQLParser.parse("topk(1, x)", stock)).isNotNull();
  }

  @Test
  void rejectsExperimentalModifiersWhenDisabled() {
    ParseOptions stock = new ParseOptions(false, false, false);
    assertThatThrownBy(() -> PromQLParser.parse("a + fill(0) b", stock))
        .hasMessage("1:1: parse error: binop fill modifiers are experimental and not enabled");
    assertThatThrownBy(() -> PromQLParser.parse("a anchored", stock))
        .hasMessage("1:1: parse error: anchored modifier is experimental and not enabled");
    assertThatThrownBy(() -> PromQLParser.parse("a[5m] smoothed", stock))
        .hasMessage("1:1: parse error: smoothed modifier is experimental and not enabled");
    assertThat(PromQLParser.parse("a + fill(0) b", ParseOptions.DEFAULT)).isNotNull();
  }

  private static ParseException parseError(String query) {
    try {
      PromQLParser.parse(query, ParseOptions.DEFAULT);
    } catch (ParseException e) {
      return e;
    }
    throw new AssertionError("parsed: " + query);
  }
}
