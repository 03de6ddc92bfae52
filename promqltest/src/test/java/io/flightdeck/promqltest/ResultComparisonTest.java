package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.StringValue;
import io.flightdeck.promql.engine.VectorValue;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResultComparisonTest {
  private static final Labels A = Labels.of("__name__", "m", "job", "a");
  private static final Labels B = Labels.of("__name__", "m", "job", "b");

  private static EvalCommand eval(String text) {
    return ScriptParser.parse("t.test", text).commands(EvalCommand.class).getFirst();
  }

  private static Optional<String> compare(EvalCommand eval, QueryValue value) {
    Optional<TimeRange> steps = eval.instant() ? eval.rangeVector() : Optional.of(eval.range());
    return ResultComparison.compare(eval, value, steps);
  }

  private static VectorValue vector(Sample... samples) {
    return new VectorValue(List.of(samples));
  }

  private static Sample sample(Labels labels, double value) {
    return new Sample(labels, 0, value);
  }

  private static final EvalCommand TWO_SERIES =
      eval(
          """
          eval instant at 0 m
            m{job="a"} 1
            m{job="b"} 2
          """);

  @Test
  void vectorMatchesInAnyOrderWithinTolerance() {
    assertThat(compare(TWO_SERIES, vector(sample(B, 2.0000001), sample(A, 1)))).isEmpty();
  }

  @Test
  void vectorValueOutsideToleranceFails() {
    assertThat(compare(TWO_SERIES, vector(sample(A, 1), sample(B, 2.1))))
        .hasValueSatisfying(m -> assertThat(m).startsWith("expected [").contains("got ["));
  }

  @Test
  void vectorLabelSetsMustMatchExactly() {
    assertThat(compare(TWO_SERIES, vector(sample(A, 1))))
        .hasValueSatisfying(m -> assertThat(m).contains("missing"));
    Labels extra = Labels.of("__name__", "m", "job", "c");
    assertThat(compare(TWO_SERIES, vector(sample(A, 1), sample(B, 2), sample(extra, 3))))
        .hasValueSatisfying(m -> assertThat(m).contains("unexpected"));
    Labels nameless = Labels.of("job", "a");
    assertThat(compare(TWO_SERIES, vector(sample(nameless, 1), sample(B, 2)))).isPresent();
  }

  @Test
  void orderedEvalChecksPositions() {
    EvalCommand ordered =
        eval(
            """
            eval instant at 0 sort(m)
              expect ordered
              m{job="a"} 1
              m{job="b"} 2
            """);
    assertThat(compare(ordered, vector(sample(A, 1), sample(B, 2)))).isEmpty();
    assertThat(compare(ordered, vector(sample(B, 2), sample(A, 1)))).isPresent();
    assertThat(compare(ordered, new MatrixValue(List.of()))).isPresent();
  }

  @Test
  void noExpectedLinesMeansEmpty() {
    EvalCommand empty = eval("eval instant at 0 m\n");
    assertThat(compare(empty, vector())).isEmpty();
    assertThat(compare(empty, vector(sample(A, 1)))).isPresent();
  }

  @Test
  void staleExpectationMatchesOnlyStaleMarker() {
    EvalCommand stale = eval("eval instant at 0 m\n  m{job=\"a\"} stale\n");
    assertThat(compare(stale, vector(sample(A, Double.NaN)))).isPresent();
    assertThat(compare(stale, vector(sample(A, io.flightdeck.model.StaleMarker.VALUE)))).isEmpty();
  }

  @Test
  void scalarAndVectorAreNotInterchangeable() {
    EvalCommand scalar = eval("eval instant at 0 1+1\n  2\n");
    assertThat(compare(scalar, new ScalarValue(0, 2))).isEmpty();
    assertThat(compare(scalar, new ScalarValue(0, 3))).isPresent();
    assertThat(compare(scalar, vector(sample(Labels.EMPTY, 2)))).isPresent();
    assertThat(compare(TWO_SERIES, new ScalarValue(0, 1))).isPresent();
  }

  @Test
  void stringsCompareExactly() {
    EvalCommand text = eval("eval instant at 0 \"a\"\n  expect string \"a\"\n");
    assertThat(compare(text, new StringValue(0, "a"))).isEmpty();
    assertThat(compare(text, new StringValue(0, "a "))).isPresent();
  }

  private static final EvalCommand RANGE =
      eval(
          """
          eval range from 0 to 2m step 1m m
            m{job="a"} 1 _ 3
            m{job="b"} 1 2
          """);

  private static RangeSeries series(Labels labels, long[] times, double[] values) {
    return new RangeSeries(labels, times, values);
  }

  @Test
  void matrixNeedsExactlyTheExpectedPoints() {
    RangeSeries a = series(A, new long[] {0, 120_000}, new double[] {1, 3});
    RangeSeries b = series(B, new long[] {0, 60_000}, new double[] {1, 2});
    assertThat(compare(RANGE, new MatrixValue(List.of(a, b)))).isEmpty();

    RangeSeries aWithGapFilled = series(A, new long[] {0, 60_000, 120_000}, new double[] {1, 2, 3});
    assertThat(compare(RANGE, new MatrixValue(List.of(aWithGapFilled, b)))).isPresent();
    RangeSeries bShifted = series(B, new long[] {60_000, 120_000}, new double[] {1, 2});
    assertThat(compare(RANGE, new MatrixValue(List.of(a, bShifted)))).isPresent();
    assertThat(compare(RANGE, new MatrixValue(List.of(a)))).isPresent();
  }

  @Test
  void matrixMustBeSortedByLabels() {
    RangeSeries a = series(A, new long[] {0, 120_000}, new double[] {1, 3});
    RangeSeries b = series(B, new long[] {0, 60_000}, new double[] {1, 2});
    assertThat(compare(RANGE, new MatrixValue(List.of(b, a))))
        .hasValueSatisfying(m -> assertThat(m).contains("not sorted"));
  }

  @Test
  void expectedSlotsBeyondTheRangeFail() {
    EvalCommand tooMany = eval("eval range from 0 to 1m step 1m m\n  m{job=\"a\"} 1 2 3\n");
    RangeSeries a = series(A, new long[] {0, 60_000}, new double[] {1, 2});
    assertThat(compare(tooMany, new MatrixValue(List.of(a)))).isPresent();
  }

  @Test
  void instantRangeVectorUsesItsOwnSteps() {
    EvalCommand rangeVector =
        eval(
            """
            eval instant at 1m m[1m]
              expect range vector from 30s to 1m step 30s
              m{job="a"} 1 2
            """);
    RangeSeries a = series(A, new long[] {30_000, 60_000}, new double[] {1, 2});
    assertThat(compare(rangeVector, new MatrixValue(List.of(a)))).isEmpty();
    RangeSeries late = series(A, new long[] {60_000, 90_000}, new double[] {1, 2});
    assertThat(compare(rangeVector, new MatrixValue(List.of(late)))).isPresent();
  }
}
