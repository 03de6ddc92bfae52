package io.flightdeck.promqltest;

import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryException;
import io.flightdeck.promql.engine.QueryResult;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.VectorValue;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.Queryable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Runs one eval command the way the reference runner does (promqltest-format.md sections 4.3 and
 * 4.5): a range eval once; an instant eval at its time, then as {@link AtModifierVariants}, and
 * each of those also as a range query around its time whose point at that time must match too.
 */
final class EvalRunner {
  /** Queries whose value depends on the query's range, so a range run may differ. */
  private static final Pattern QUERY_RANGE_FUNCTIONS =
      Pattern.compile("(start|end|range|step)\\(\\)");

  private static final long RANGE_CHECK_STEP_MS = 60_000;

  private final Engine engine;
  private final Queryable storage;

  EvalRunner(Engine engine, Queryable storage) {
    this.engine = engine;
    this.storage = storage;
  }

  /** Why the eval failed; empty if it passed. */
  Optional<String> run(EvalCommand eval, Expr expr) {
    if (!eval.instant()) {
      return range(eval, expr);
    }
    long time = eval.evaluationTimeMs();
    Optional<String> problem = instant(eval, expr, eval.query(), time);
    if (problem.isPresent()) {
      return problem;
    }
    for (AtModifierVariants.Variant variant : AtModifierVariants.of(expr, time)) {
      // Run from its text, as upstream does, so that printing the tree is checked as well.
      String text = variant.expr().toString();
      Expr reparsed;
      try {
        reparsed = PromQL.parse(text);
      } catch (ParseException e) {
        return Optional.of(
            "the query with @ added, " + text + ", does not parse: " + e.getMessage());
      }
      problem = instant(eval, reparsed, text, variant.timeMs());
      if (problem.isPresent()) {
        return Optional.of(
            "as "
                + text
                + " at "
                + Values.format(variant.timeMs() / 1000.0)
                + "s: "
                + problem.get());
      }
    }
    return Optional.empty();
  }

  private Optional<String> range(EvalCommand eval, Expr expr) {
    TimeRange r = eval.range();
    QueryResult result;
    try {
      result = engine.rangeQuery(storage, expr, r.startMs(), r.endMs(), r.stepMs());
    } catch (ParseException | QueryException e) {
      return error(eval, e);
    }
    if (eval.failExpected()) {
      return Optional.of("expected an error, got a result");
    }
    return AnnotationCheck.check(eval, result.warnings(), result.infos())
        .or(() -> ResultComparison.compare(eval, result.value(), Optional.of(r)));
  }

  private Optional<String> instant(EvalCommand eval, Expr expr, String text, long timeMs) {
    QueryResult result;
    try {
      result = engine.instantQuery(storage, expr, timeMs);
    } catch (ParseException | QueryException e) {
      return error(eval, e);
    }
    if (eval.failExpected()) {
      return Optional.of("expected an error, got a result");
    }
    Optional<String> problem =
        AnnotationCheck.check(eval, result.warnings(), result.infos())
            .or(() -> ResultComparison.compare(eval, result.value(), eval.rangeVector()));
    if (problem.isPresent()
        || eval.rangeVector().isPresent()
        || eval.expected() instanceof ExpectedResult.Text
        || QUERY_RANGE_FUNCTIONS.matcher(text).find()) {
      return problem;
    }
    return rangeMode(eval, expr, timeMs, result).map(p -> "in range mode: " + p);
  }

  /** The instant query run as a range query from a step before to a step after its time. */
  private Optional<String> rangeMode(
      EvalCommand eval, Expr expr, long timeMs, QueryResult instant) {
    QueryResult result;
    try {
      result =
          engine.rangeQuery(
              storage,
              expr,
              timeMs - RANGE_CHECK_STEP_MS,
              timeMs + RANGE_CHECK_STEP_MS,
              RANGE_CHECK_STEP_MS);
    } catch (ParseException | QueryException e) {
      return Optional.of("error: " + e.getMessage());
    }
    if (eval.ordered()) {
      return Optional.empty(); // a range result is ordered by labels, not as the query asks
    }
    if (!(result.value() instanceof MatrixValue matrix)) {
      return Optional.of("expected a matrix, got a " + result.value().resultType());
    }
    Optional<String> unsorted = ResultComparison.unsorted(matrix);
    if (unsorted.isPresent()) {
      return unsorted;
    }
    List<Sample> atTime = new ArrayList<>();
    for (RangeSeries s : matrix.series()) {
      for (int i = 0; i < s.size(); i++) {
        if (s.timestamps()[i] == timeMs) {
          atTime.add(new Sample(s.labels(), timeMs, s.values()[i]));
          break;
        }
      }
    }
    if (instant.value() instanceof ScalarValue) {
      if (atTime.isEmpty()) {
        return Optional.of("expected a scalar, got no point at the query time");
      }
      return ResultComparison.compare(
          eval, new ScalarValue(timeMs, atTime.getFirst().value()), Optional.empty());
    }
    return ResultComparison.compare(eval, new VectorValue(atTime), Optional.empty());
  }

  private static Optional<String> error(EvalCommand eval, RuntimeException e) {
    String message = e.getMessage();
    if (!eval.failExpected()) {
      return Optional.of("unexpected error: " + message);
    }
    Expectation fail = eval.expectations(Expectation.Kind.FAIL).getFirst();
    if (!fail.matches(message)) {
      return Optional.of(
          "expected error "
              + fail.message().orElseGet(() -> "matching /" + fail.regex().orElseThrow() + "/")
              + ", got error: "
              + message);
    }
    return Optional.empty();
  }
}
