package io.flightdeck.promql.parser;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Matcher;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Our own cases: how queries group and how they print back, as Prometheus prints them. */
class ParserCasesTest {

  private static Expr parse(String query) {
    return PromQLParser.parse(query, ParseOptions.DEFAULT);
  }

  @ParameterizedTest(name = "{0} groups as {1}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          1 + 2 * 3            | (+ 1 (* 2 3))
          1 * 2 + 3            | (+ (* 1 2) 3)
          a - b - c            | (- (- a b) c)
          2 ^ 3 ^ 2            | (^ 2 (^ 3 2))
          a / b % c            | (% (/ a b) c)
          a atan2 b * c        | (* (atan2 a b) c)
          a + b == c - d       | (== (+ a b) (- c d))
          a > b < c            | (< (> a b) c)
          a or b and c         | (or a (and b c))
          a and b unless c     | (unless (and a b) c)
          a unless b or c      | (or (unless a b) c)
          a == b and c         | (and (== a b) c)
          a </ b + 1           | (</ a (+ b 1))
          -a ^ 2               | (- (^ a 2))
          -a * b               | (* (- a) b)
          -a + b               | (+ (- a) b)
          a * -b ^ c           | (* a (- (^ b c)))
          2 ^ -1               | (^ 2 -1)
          -2 ^ 2               | (- (^ 2 2))
          -(1)                 | (- [1])
          --1                  | 1
          - - a                | (- (- a))
          +a                   | (+ a)
          (a + b) * c          | (* [(+ a b)] c)
          -a offset 1m         | (- a offset 1m)
          rate(a[5m:]) * 2     | (* (rate (subquery a)) 2)
          a + b offset 1m      | (+ a b offset 1m)
          a + b @ 10           | (+ a b @ 10.000)
          foo offset -2 ^ 2    | (^ foo offset -2s 2)
          sum(a) + b           | (+ (sum a) b)
          topk(3, a) / 2       | (/ (topk 3 a) 2)
          """)
  void groupsAsPrometheusDoes(String query, String shape) {
    assertThat(Shape.of(parse(query))).isEqualTo(shape);
  }

  @ParameterizedTest(name = "{0} prints as {1}")
  @CsvSource(
      delimiter = '|',
      quoteCharacter = '\u0000',
      textBlock =
          """
          sum by(job)(rate(http_requests_total[5m]))       | sum by (job) (rate(http_requests_total[5m]))
          sum(rate(x[5m])) by (job, instance)              | sum by (job, instance) (rate(x[5m]))
          sum without(a, b,) (x)                            | sum without (a, b) (x)
          sum by() (x)                                      | sum(x)
          sum without() (x)                                 | sum without () (x)
          SUM BY (Job) (x)                                  | sum by (Job) (x)
          avg by (sum, bool, on, offset) (x)                | avg by (sum, bool, on, offset) (x)
          sum by (a:b) (x)                                  | sum by ("a:b") (x)
          topk(5, x)                                        | topk(5, x)
          count_values('value', x)                          | count_values("value", x)
          quantile(0.9, x)                                  | quantile(0.9, x)
          limitk(2, x)                                      | limitk(2, x)
          limit_ratio(0.5, x)                               | limit_ratio(0.5, x)
          a>bool 1                                          | a > bool 1
          a/on(job)group_left(instance)b                    | a / on (job) group_left (instance) b
          a * on(job) group_left b                          | a * on (job) group_left () b
          a * ignoring(x) group_right b                     | a * ignoring (x) group_right () b
          a + ignoring() b                                  | a + b
          a + on() b                                        | a + on () b
          a and on(job) b                                   | a and on (job) b
          1 + on() 2                                        | 1 + 2
          foo offset 5m                                     | foo offset 5m
          foo offset -5m                                    | foo offset -5m
          foo offset 90m                                    | foo offset 1h30m
          foo offset 90d                                    | foo offset 90d
          foo offset 14d                                    | foo offset 2w
          foo offset 365d                                   | foo offset 1y
          foo offset 50                                     | foo offset 50s
          foo offset 1.5                                    | foo offset 1s500ms
          foo offset 0                                      | foo
          foo[300]                                          | foo[5m]
          foo[5m] offset 1w                                 | foo[5m] offset 1w
          foo @ 100                                         | foo @ 100.000
          foo @ 1.2345                                      | foo @ 1.235
          foo @ -1m                                         | foo @ -60.000
          foo @ 1e3                                         | foo @ 1000.000
          foo offset 1m @ 100                               | foo @ 100.000 offset 1m
          foo @ start()                                     | foo @ start()
          foo[5m] @ end() offset 1m                         | foo[5m] @ end() offset 1m
          foo @ END()                                       | foo @ end()
          rate(foo[5m])[30m:1m]                             | rate(foo[5m])[30m:1m]
          foo[1h:]                                          | foo[1h:]
          (foo)[5m:] offset 1m @ 10                         | (foo)[5m:] @ 10.000 offset 1m
          foo[5m+1m]                                        | foo[5m + 1m]
          foo[ 5m * 2 ]                                     | foo[5m * 2]
          foo[(5m)]                                         | foo[5m]
          foo[(5m+1m)*2]                                    | foo[(5m + 1m) * 2]
          foo[2*step()]                                     | foo[2 * step()]
          foo[-step()+10m]                                  | foo[-step() + 10m]
          foo[min_of(5m, range())]                          | foo[min_of(5m, range())]
          foo[10m:step()]                                   | foo[10m:step()]
          foo offset (1h / 2)                               | foo offset (1h / 2)
          foo offset -(1h)                                  | foo offset -1h
          foo offset +(5*2)                                 | foo offset (5 * 2)
          foo offset -step()                                | foo offset -step()
          foo offset max_of(1m, step())                     | foo offset max_of(1m, step())
          foo offset 1m * 2                                 | foo offset 1m * 2
          {"train/loss"}                                    | {__name__="train/loss"}
          {"train/loss", run="a"}                           | {__name__="train/loss",run="a"}
          {"foo.bar"="x", job="a"}                          | {"foo.bar"="x",job="a"}
          {"_ok"="1"}                                       | {_ok="1"}
          {job=~"a.*",job!~"b",job!="c",job="d"}            | {job!="c",job!~"b",job="d",job=~"a.*"}
          foo{}                                             | foo
          foo{,}                                            | ERROR
          foo{a="b",}                                       | foo{a="b"}
          foo{__name__="foo"}                               | ERROR
          {__name__="foo"}                                  | {__name__="foo"}
          sum:rate5m{job="a"}                               | sum:rate5m{job="a"}
          sum                                               | sum
          by{a="b"}                                         | by{a="b"}
          offset                                            | offset
          start + end                                       | start + end
          and and and                                       | and and and
          fill + fill                                       | fill + fill
          a + fill(0) b                                     | a + fill (0) b
          a+fill_left(-1)fill_right(2)b                     | a + fill_left (-1) fill_right (2) b
          a + fill_right(1) fill_left(1) b                  | a + fill (1) b
          a + fill(NaN) b                                   | a + fill_left (NaN) fill_right (NaN) b
          a + fill(1e6) b                                   | a + fill (1e+06) b
          a / on(x) group_left(y) fill_right(1m) b          | a / on (x) group_left (y) fill_right (60) b
          a == bool ignoring(x) fill(-Inf) b                | a == bool ignoring (x) fill (-Inf) b
          a[5m] anchored                                    | a[5m] anchored
          a[5m] smoothed @ 10 offset 1m                     | a[5m] smoothed @ 10.000 offset 1m
          a @ 10 offset 1m smoothed                         | a @ 10.000 smoothed offset 1m
          a anchored                                        | a anchored
          rate(a[5m] offset 1m anchored)                    | rate(a[5m] anchored offset 1m)
          "a\\nb"                                            | "a\\nb"
          'single "quoted"'                                 | "single \\"quoted\\""
          `raw\\n`                                           | "raw\\\\n"
          "\\u00e9\\U0001F600"                                | "é😀"
          "\\x41\\101"                                        | "AA"
          "\\xff"                                            | "\\xff"
          "tab\\there"                                       | "tab\\there"
          0x1F                                              | 31
          0X_1f                                             | 31
          1_000                                             | 1000
          017                                               | 15
          08                                                | 8
          .5                                                | 0.5
          5.                                                | 5
          1e3                                               | 1000
          1.5e-3                                            | 0.0015
          1e-7                                              | 0.0000001
          1e21                                              | 1000000000000000000000
          Inf                                               | +Inf
          -inf                                              | -Inf
          nAn                                               | NaN
          -0                                                | -0
          5m                                                | 5m
          1h + 1                                            | 1h + 1
          -1h30m                                            | -1h30m
          label_join(x, "a", ",", "b", "c", "d")            | label_join(x, "a", ",", "b", "c", "d")
          round(x)                                          | round(x)
          hour()                                            | hour()
          time() - 1                                        | time() - 1
          start()                                           | start()
          sum(x) # a comment                                | sum(x)
          """)
  void printsCanonically(String query, String printed) {
    if (printed.equals("ERROR")) {
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> parse(query))
          .isInstanceOf(ParseException.class);
      return;
    }
    Expr expr = parse(query);
    assertThat(expr.toString()).isEqualTo(printed);
    assertThat(StructuralEquality.equal(parse(printed), expr)).isTrue();
  }

  /**
   * A NaN offset becomes the most negative duration, as Go converts it; it prints (to the
   * millisecond, so it does not read back exactly) instead of failing to negate.
   */
  @Test
  void aNanOffsetPrints() {
    assertThat(parse("foo offset NaN").toString()).isEqualTo("foo offset -106751d23h47m16s854ms");
  }

  @Test
  void keepsSelectorDetails() {
    VectorSelector vs = (VectorSelector) parse("foo{a=~\"x.*\"} offset -1m @ 1.5");
    assertThat(vs.name()).isEqualTo("foo");
    assertThat(vs.matchers())
        .containsExactly(Matcher.regex("a", "x.*"), Matcher.equal("__name__", "foo"));
    assertThat(vs.originalOffset()).isEqualTo(Duration.ofMinutes(-1));
    assertThat(vs.timestamp()).isEqualTo(1500L);
    assertThat(vs.position()).isEqualTo(new PositionRange(0, 30));
  }

  @Test
  void keepsRangeAndSubqueryDetails() {
    Call call = (Call) parse("max_over_time(rate(x[5m])[1h:30s] offset 10m)");
    SubqueryExpr sq = (SubqueryExpr) call.args().get(0);
    assertThat(sq.range()).isEqualTo(Duration.ofHours(1));
    assertThat(sq.step()).isEqualTo(Duration.ofSeconds(30));
    assertThat(sq.originalOffset()).isEqualTo(Duration.ofMinutes(10));
    MatrixSelector ms = (MatrixSelector) ((Call) sq.expr()).args().get(0);
    assertThat(ms.range()).isEqualTo(Duration.ofMinutes(5));
    assertThat(call.type()).isEqualTo(ValueType.VECTOR);
  }

  @Test
  void normalisesMatchingAsPrometheusDoes() {
    BinaryExpr set = (BinaryExpr) parse("a and b");
    assertThat(set.matching().cardinality()).isEqualTo(Cardinality.MANY_TO_MANY);
    BinaryExpr scalar = (BinaryExpr) parse("a + 1");
    assertThat(scalar.matching()).isNull();
    BinaryExpr grouped = (BinaryExpr) parse("a * on(x) group_left(y, \"z.z\") b");
    assertThat(grouped.matching())
        .isEqualTo(
            new VectorMatching(
                Cardinality.MANY_TO_ONE, List.of("x"), true, List.of("y", "z.z"), null, null));
  }

  /**
   * Prometheus drops parentheses around a lone duration literal, so an offset that goes on into
   * arithmetic prints as text that groups differently; we print what Prometheus prints.
   */
  @Test
  void printsOffsetArithmeticOnAParenthesisedLiteralAsPrometheusDoes() {
    Expr expr = parse("foo offset (1h) * 2");
    assertThat(expr.toString()).isEqualTo("foo offset 1h * 2");
    assertThat(Shape.of(expr)).isEqualTo("foo offset 1h * 2");
    assertThat(Shape.of(parse(expr.toString()))).isEqualTo("(* foo offset 1h 2)");
  }

  /**
   * Likewise after a double sign, the one way into offset arithmetic without a parenthesis: the
   * printer drops the plus. And Go prints a negative zero duration as {@code 0s}, losing its sign.
   */
  @Test
  void printsDoubleSignedOffsetArithmeticAndNegativeZeroDurationsAsPrometheusDoes() {
    Expr expr = parse("foo offset +-2 * 1");
    assertThat(expr.toString()).isEqualTo("foo offset -2 * 1");
    assertThat(Shape.of(expr)).isEqualTo("foo offset -2 * 1");
    assertThat(Shape.of(parse(expr.toString()))).isEqualTo("(* foo offset -2s 1)");
    assertThat(parse("-0m").toString()).isEqualTo("0s");
  }

  /**
   * Prometheus prints positive infinity as {@code +Inf}, which before {@code ^} reads as a sign.
   */
  @Test
  void printsInfinityBeforePowerAsPrometheusDoes() {
    Expr expr = parse("Inf ^ 2");
    assertThat(expr.toString()).isEqualTo("+Inf ^ 2");
    assertThat(Shape.of(expr)).isEqualTo("(^ +Inf 2)");
    assertThat(Shape.of(parse(expr.toString()))).isEqualTo("(+ (^ +Inf 2))");
  }

  @Test
  void readsDurationLiteralsAsSeconds() {
    NumberLiteral n = (NumberLiteral) parse("1h30m");
    assertThat(n.value()).isEqualTo(5400.0);
    assertThat(n.duration()).isTrue();
    assertThat(((NumberLiteral) parse("-5m")).value()).isEqualTo(-300.0);
  }

  @Test
  void keepsInvalidUtf8FromEscapesAsEscapedBytes() {
    StringLiteral s = (StringLiteral) parse("\"a\\xc5z\"");
    assertThat(s.value()).isEqualTo("a\uDCC5z");
    assertThat(s.toString()).isEqualTo("\"a\\xc5z\"");
  }

  @Test
  void typesExpressions() {
    assertThat(parse("1 + 1").type()).isEqualTo(ValueType.SCALAR);
    assertThat(parse("x + 1").type()).isEqualTo(ValueType.VECTOR);
    assertThat(parse("x[5m]").type()).isEqualTo(ValueType.MATRIX);
    assertThat(parse("x[5m:]").type()).isEqualTo(ValueType.MATRIX);
    assertThat(parse("\"s\"").type()).isEqualTo(ValueType.STRING);
    assertThat(parse("scalar(x)").type()).isEqualTo(ValueType.SCALAR);
    assertThat(parse("(-time())").type()).isEqualTo(ValueType.SCALAR);
  }

  @Test
  void acceptsQueriesOverSeveralLines() {
    Expr expr = parse("sum by (job) (\n  rate(x[5m]) # per second\n)\n");
    assertThat(expr.toString()).isEqualTo("sum by (job) (rate(x[5m]))");
  }
}
