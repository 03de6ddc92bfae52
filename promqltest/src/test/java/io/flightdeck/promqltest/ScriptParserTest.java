package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promqltest.Expectation.Kind;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ScriptParserTest {

  private static Script parse(String text) {
    return ScriptParser.parse("t.test", text);
  }

  private static EvalCommand onlyEval(String text) {
    return parse(text).commands(EvalCommand.class).get(0);
  }

  @Test
  void commandsInFileOrderWithLines() {
    Script script =
        parse(
            """
            # comment
            load 5m
              http_requests{job="api"} 0+10x2
              http_requests{job="api"} 1 2
              other 1

            eval instant at 50m sum(http_requests)
              {} 300

            clear
            """);

    assertThat(script.commands()).extracting(Command::line).containsExactly(2, 7, 10);
    LoadCommand load = (LoadCommand) script.commands().get(0);
    assertThat(load.stepMs()).isEqualTo(300_000);
    assertThat(load.withNhcb()).isFalse();
    assertThat(load.needsNativeHistograms()).isFalse();
    // The repeated label set replaced the earlier line.
    assertThat(load.samplesByLabels())
        .containsExactly(
            java.util.Map.entry(
                Labels.of("__name__", "http_requests", "job", "api"),
                List.of(
                    new Sample(0, new SampleValue.Float(1)),
                    new Sample(300_000, new SampleValue.Float(2)))),
            java.util.Map.entry(
                Labels.of("__name__", "other"), List.of(new Sample(0, new SampleValue.Float(1)))));
    assertThat(script.commands().get(2)).isEqualTo(new ClearCommand(10));
  }

  @Test
  void loadWithNhcbAndHistogramsNeedNativeHistograms() {
    Script script =
        parse(
            """
            load_with_nhcb 1m
              h_bucket{le="1"} 1 2

            load 1m
              h {{count:1}}
            """);

    assertThat(script.commands(LoadCommand.class))
        .allSatisfy(load -> assertThat(load.needsNativeHistograms()).isTrue());
    assertThat(script.commands(LoadCommand.class).get(0).withNhcb()).isTrue();
  }

  @Test
  void instantEval() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 1h30m rate(m[5m]) * 2
              {job="a"} 0.5
              {job="b"} stale
            """);

    assertThat(eval.instant()).isTrue();
    assertThat(eval.query()).isEqualTo("rate(m[5m]) * 2");
    assertThat(eval.range()).isEqualTo(new TimeRange(5_400_000, 5_400_000, 0));
    assertThat(eval.evaluationTimeMs()).isEqualTo(5_400_000);
    assertThat(eval.expr()).isPresent();
    assertThat(eval.parseError()).isEmpty();
    assertThat(eval.expectations()).isEmpty();
    List<SeriesDescription> series = ((ExpectedResult.Series) eval.expected()).series();
    assertThat(series).extracting(SeriesDescription::line).containsExactly(2, 3);
    assertThat(series.get(0).labels()).isEqualTo(Labels.of("job", "a"));
    assertThat(series.get(0).slots()).containsExactly(Optional.of(new SampleValue.Float(0.5)));
    double stale = ((SampleValue.Float) series.get(1).slots().get(0).orElseThrow()).value();
    assertThat(StaleMarker.is(stale)).isTrue();
  }

  @Test
  void rangeEvalWithGaps() {
    EvalCommand eval =
        onlyEval(
            """
            eval range from 0 to 10m step 5m m offset 5m
              m{i="0"} _ 0 10
            """);

    assertThat(eval.instant()).isFalse();
    assertThat(eval.range()).isEqualTo(new TimeRange(0, 600_000, 300_000));
    SeriesDescription s = ((ExpectedResult.Series) eval.expected()).series().get(0);
    assertThat(s.samples(eval.range().startMs(), eval.range().stepMs()))
        .containsExactly(
            new Sample(300_000, new SampleValue.Float(0)),
            new Sample(600_000, new SampleValue.Float(10)));
  }

  @Test
  void noResultLinesMeansEmpty() {
    EvalCommand eval = onlyEval("eval instant at 0 m # empty\n");

    assertThat(eval.query()).isEqualTo("m # empty");
    assertThat(eval.expected()).isEqualTo(new ExpectedResult.Series(List.of()));
  }

  @Test
  void scalarAndStringResults() {
    Script script =
        parse(
            """
            eval instant at 0 1 + 1
              -0x10

            eval instant at 0 NaN
              NaN

            eval instant at 0 "Foo"
              expect string `Foo`

            eval instant at 0 " a "
              expect string " a\\n"
            """);
    List<EvalCommand> evals = script.commands(EvalCommand.class);

    assertThat(evals.get(0).expected()).isEqualTo(new ExpectedResult.Scalar(-16, 2));
    assertThat(((ExpectedResult.Scalar) evals.get(1).expected()).value()).isNaN();
    assertThat(evals.get(2).expected()).isEqualTo(new ExpectedResult.Text("Foo", 8));
    assertThat(evals.get(3).expected()).isEqualTo(new ExpectedResult.Text(" a\n", 11));
  }

  @Test
  void expectLines() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 0 sort(m)
              expect ordered
              expect warn msg: PromQL warning: sort is ineffective
              expect warn regex: ineffective\\s+for
              expect no_info
              m 1
            """);

    assertThat(eval.ordered()).isTrue();
    assertThat(eval.failExpected()).isFalse();
    assertThat(eval.expectations())
        .extracting(Expectation::kind)
        .containsExactly(Kind.ORDERED, Kind.WARN, Kind.WARN, Kind.NO_INFO);
    List<Expectation> warns = eval.expectations(Kind.WARN);
    assertThat(warns.get(0).message()).contains("PromQL warning: sort is ineffective");
    assertThat(warns.get(0).matches("PromQL warning: sort is ineffective")).isTrue();
    assertThat(warns.get(0).matches("PromQL warning: sort is ineffective!")).isFalse();
    assertThat(warns.get(1).matches("sort is ineffective  for range queries")).isTrue();
    assertThat(warns.get(1).line()).isEqualTo(4);
    assertThat(eval.expectations(Kind.NO_INFO).get(0).matches("anything")).isTrue();
  }

  @Test
  void expectFailWithMessage() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 0 abs({__name__=~"a|b"})
              expect fail msg: vector cannot contain metrics with the same labelset
            """);

    assertThat(eval.failExpected()).isTrue();
    assertThat(eval.expectations(Kind.FAIL).get(0).message())
        .contains("vector cannot contain metrics with the same labelset");
  }

  @Test
  void deprecatedHeaderFormsBecomeExpectations() {
    Script script =
        parse(
            """
            eval_fail instant at 0 m
              expected_fail_regexp same label.et

            eval_warn range from 0 to 1m step 1m m

            eval_info instant at 0 m

            eval_ordered instant at 0 m
            """);
    List<EvalCommand> evals = script.commands(EvalCommand.class);

    Expectation fail = evals.get(0).expectations(Kind.FAIL).get(0);
    assertThat(fail.regex()).isPresent();
    assertThat(fail.matches("found duplicate series: same labelset")).isTrue();
    assertThat(evals.get(0).expectations()).hasSize(1);
    assertThat(evals.get(1).expectations(Kind.WARN)).hasSize(1);
    assertThat(evals.get(2).expectations(Kind.INFO)).hasSize(1);
    assertThat(evals.get(3).ordered()).isTrue();
  }

  @Test
  void expectRangeVector() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 1m m[1m]
              expect range vector from 10s to 1m step 10s
              m 1 2 3 4 5 6
            """);

    assertThat(eval.rangeVector()).contains(new TimeRange(10_000, 60_000, 10_000));
    assertThat(eval.evaluationTimeMs()).isEqualTo(60_000);
    assertThat(((ExpectedResult.Series) eval.expected()).series().get(0).slots()).hasSize(6);
  }

  @Test
  void invalidQueryIsRecordedNotThrown() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 0 sum(
              expect fail
            """);

    assertThat(eval.expr()).isEmpty();
    assertThat(eval.parseError())
        .get()
        .extracting(Throwable::getMessage)
        .asString()
        .contains("parse error");
    assertThat(eval.failExpected()).isTrue();
  }

  @Test
  void nativeHistogramExpectationsAreFlagged() {
    EvalCommand eval =
        onlyEval(
            """
            eval instant at 0 h
              h {{count:1 sum:2}}
            """);

    assertThat(eval.expectsNativeHistograms()).isTrue();
  }

  @Test
  void startTimestampLinesNameTheirSeries() {
    LoadCommand load =
        parse("load 1m\n  a@st -1m 0\n  a 1 2\n  b 1\n  @st 0\n  c 1\n")
            .commands(LoadCommand.class)
            .get(0);

    assertThat(load.series()).extracting(SeriesDescription::labels).hasSize(3);
    assertThat(load.startTimestamped())
        .containsExactly(Labels.of("__name__", "a"), Labels.of("__name__", "c"));
  }

  @Test
  void errorsNameFileAndLine() {
    assertError("\n\nbogus 1\n", 3, "invalid command \"bogus 1\"");
    assertError("load\n", 1, "invalid load command");
    assertError("load 5q\n  m 1\n", 1, "invalid step \"5q\"");
    assertError("load 1m\n  m 1\n  m{a=b} 2\n", 3, "quoted label value");
    assertError("load 1m\n  m@st 0 0\n  n 1 2\n", 2, "@st metric does not match");
    assertError("load 1m\n  m@st 0 0\n", 2, "@st line has no following sample line");
    assertError("eval instant at 0 m\n  m@st 0\n", 2, "load blocks only");
    assertError("eval instant m\n", 1, "eval instant needs 'at <time>'");
    assertError("eval_ordered range from 0 to 1m step 1m m\n", 1, "invalid eval command");
    assertError("eval instant at x m\n", 1, "invalid time \"x\"");
    assertError("eval range from 10m to 5m step 1m m\n", 1, "end time (5m) is before start");
    assertError("eval instant at 0 m\n  m 1 2\n", 2, "multiple values in instant evaluation");
    assertError("eval instant at 0 m\n  expect nothing\n", 2, "invalid expect line");
    assertError("eval instant at 0 m\n  expect warn\n  expect no_warn\n", 3, "warn and no_warn");
    assertError("eval instant at 0 m\n  expect info\n  expect no_info\n", 3, "info and no_info");
    assertError("eval instant at 0 m\n  expect fail\n  expect fail\n", 3, "one expect fail");
    assertError("eval instant at 0 m\n  expect fail regex: (\n", 2, "invalid regex (");
    assertError("eval instant at 0 m\n  expect string Foo\n", 2, "quoted string literal");
    assertError("eval instant at 0 1\n  1\n  2\n", 3, "invalid command \"2\"");
    assertError("eval instant at 0 m\n  m 1\n  3\n", 3, "only one result");
    assertError(
        "eval instant at 0 m\n  expect range vector from 1m to\n", 2, "invalid range vector");
  }

  private static void assertError(String text, int line, String problem) {
    assertThatThrownBy(() -> parse(text))
        .isInstanceOfSatisfying(
            ScriptException.class,
            e -> {
              assertThat(e.file()).isEqualTo("t.test");
              assertThat(e.line()).isEqualTo(line);
            })
        .hasMessageStartingWith("t.test:" + line + ": ")
        .hasMessageContaining(problem);
  }
}
