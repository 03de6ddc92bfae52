package io.flightdeck.promqltest;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.StringValue;
import io.flightdeck.promql.engine.VectorValue;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Compares a query's value with what an eval block expects (promqltest-format.md section 4.3):
 * label sets must match exactly, values within {@link AlmostEqual}, order only when asked for, and
 * a matrix must come sorted by labels with exactly the expected points.
 */
final class ResultComparison {
  private final EvalCommand eval;

  /** Expected series by label set (a repeated label set replaces the earlier line). */
  private final Map<Labels, Expected> expected = new LinkedHashMap<>();

  private record Expected(int position, SeriesDescription series) {}

  private ResultComparison(EvalCommand eval) {
    this.eval = eval;
    if (eval.expected() instanceof ExpectedResult.Series s) {
      for (int i = 0; i < s.series().size(); i++) {
        SeriesDescription d = s.series().get(i);
        expected.put(d.labels(), new Expected(i, d));
      }
    }
  }

  /**
   * @param steps the times a matrix's expected slots stand for: the eval's range, or its {@code
   *     expect range vector} range; empty for a plain instant eval, which expects no matrix
   * @return why the value does not match; empty if it does
   */
  static Optional<String> compare(EvalCommand eval, QueryValue actual, Optional<TimeRange> steps) {
    return new ResultComparison(eval).compare(actual, steps);
  }

  private Optional<String> compare(QueryValue actual, Optional<TimeRange> steps) {
    return switch (actual) {
      case MatrixValue m -> matrix(m, steps);
      case VectorValue v -> vector(v);
      case ScalarValue s -> scalar(s);
      case StringValue s -> string(s);
    };
  }

  private Optional<String> scalar(ScalarValue actual) {
    if (!(eval.expected() instanceof ExpectedResult.Scalar want)) {
      return fail("expected vector or matrix result, got scalar " + Values.format(actual.value()));
    }
    if (!AlmostEqual.equal(want.value(), actual.value())) {
      return fail(
          "expected scalar "
              + Values.format(want.value())
              + ", got "
              + Values.format(actual.value()));
    }
    return Optional.empty();
  }

  private Optional<String> string(StringValue actual) {
    String want = eval.expected() instanceof ExpectedResult.Text t ? t.value() : "";
    if (!want.equals(actual.value())) {
      return fail("expected string \"" + want + "\", got \"" + actual.value() + "\"");
    }
    return Optional.empty();
  }

  private Optional<String> vector(VectorValue actual) {
    List<io.flightdeck.promql.engine.Sample> samples = actual.samples();
    if (eval.expected() instanceof ExpectedResult.Scalar want) {
      return fail(
          "expected scalar " + Values.format(want.value()) + ", got vector " + describe(samples));
    }
    Set<Labels> seen = new HashSet<>();
    for (int i = 0; i < samples.size(); i++) {
      io.flightdeck.promql.engine.Sample sample = samples.get(i);
      Expected want = expected.get(sample.labels());
      if (want == null) {
        return mismatch(samples, "unexpected " + sample.labels());
      }
      if (eval.ordered() && want.position() != i) {
        return mismatch(
            samples,
            sample.labels() + " at position " + (i + 1) + " instead of " + (want.position() + 1));
      }
      double wantValue = first(want.series()).map(ResultComparison::floatOf).orElse(0.0);
      if (!AlmostEqual.equal(wantValue, sample.value())) {
        return mismatch(samples, "value of " + sample.labels());
      }
      seen.add(sample.labels());
    }
    for (Labels labels : expected.keySet()) {
      if (!seen.contains(labels)) {
        return mismatch(samples, "missing " + labels);
      }
    }
    return Optional.empty();
  }

  private Optional<String> matrix(MatrixValue actual, Optional<TimeRange> steps) {
    if (eval.ordered()) {
      return fail("expected ordered result, but query returned a matrix");
    }
    if (eval.expected() instanceof ExpectedResult.Scalar want) {
      return fail("expected scalar " + Values.format(want.value()) + ", got a matrix");
    }
    Optional<String> unsorted = unsorted(actual);
    if (unsorted.isPresent()) {
      return unsorted;
    }
    List<RangeSeries> series = actual.series();
    Set<Labels> seen = new HashSet<>();
    for (RangeSeries s : series) {
      Expected want = expected.get(s.labels());
      if (want == null) {
        return fail(
            "expected "
                + Values.list(List.copyOf(expected.keySet()), Labels::toString)
                + ", got unexpected series "
                + s.labels()
                + " "
                + points(s.timestamps(), s.values()));
      }
      seen.add(s.labels());
      Optional<String> problem = points(want.series(), s, steps);
      if (problem.isPresent()) {
        return problem;
      }
    }
    for (Labels labels : expected.keySet()) {
      if (!seen.contains(labels)) {
        return fail(
            "expected series "
                + labels
                + " missing, got "
                + Values.list(series, r -> r.labels().toString()));
      }
    }
    return Optional.empty();
  }

  /** Why a matrix is not sorted by label set, as every matrix must be; empty if it is. */
  static Optional<String> unsorted(MatrixValue matrix) {
    List<RangeSeries> series = matrix.series();
    for (int i = 0; i + 1 < series.size(); i++) {
      if (series.get(i).labels().compareTo(series.get(i + 1).labels()) > 0) {
        return fail(
            "matrix not sorted by labels: "
                + series.get(i).labels()
                + " before "
                + series.get(i + 1).labels());
      }
    }
    return Optional.empty();
  }

  private Optional<String> points(
      SeriesDescription want, RangeSeries actual, Optional<TimeRange> steps) {
    List<Long> times = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int i = 0; i < want.slots().size(); i++) {
      if (steps.isEmpty()) {
        return fail("expected an instant vector for " + want.labels() + ", got a matrix");
      }
      long t = steps.get().startMs() + i * steps.get().stepMs();
      if (t > steps.get().endMs()) {
        return fail(
            "expected "
                + want.slots().size()
                + " points for "
                + want.labels()
                + ", more than the query range has steps");
      }
      int slot = i;
      want.slots()
          .get(slot)
          .ifPresent(
              v -> {
                times.add(t);
                values.add(floatOf(v));
              });
    }
    boolean same = times.size() == actual.size();
    for (int i = 0; same && i < times.size(); i++) {
      same =
          times.get(i) == actual.timestamps()[i]
              && AlmostEqual.equal(values.get(i), actual.values()[i]);
    }
    if (!same) {
      long[] t = times.stream().mapToLong(Long::longValue).toArray();
      double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
      return fail(
          "expected "
              + want.labels()
              + " "
              + points(t, v)
              + ", got "
              + points(actual.timestamps(), actual.values()));
    }
    return Optional.empty();
  }

  /** The value an instant result is compared with; a missing one stands for 0, as upstream. */
  private static Optional<SampleValue> first(SeriesDescription d) {
    return d.slots().stream().findFirst().flatMap(slot -> slot);
  }

  /** Histogram expectations are skipped before comparing, so every slot here is a float. */
  private static double floatOf(SampleValue value) {
    return ((SampleValue.Float) value).value();
  }

  private Optional<String> mismatch(List<io.flightdeck.promql.engine.Sample> actual, String why) {
    List<Expected> want = List.copyOf(expected.values());
    return fail(
        "expected "
            + Values.list(want, e -> e.series().labels() + " " + slotText(e.series()))
            + ", got "
            + describe(actual)
            + " ("
            + why
            + ")");
  }

  private static String slotText(SeriesDescription d) {
    return first(d).map(v -> Values.format(floatOf(v))).orElse("_");
  }

  private static String describe(List<io.flightdeck.promql.engine.Sample> samples) {
    return Values.list(samples, s -> s.labels() + " " + Values.format(s.value()));
  }

  /** {@code [1@60s 2@120s]}: values at their times in seconds. */
  private static String points(long[] times, double[] values) {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < times.length; i++) {
      if (i > 0) {
        sb.append(' ');
      }
      if (i == 12) {
        sb.append("... ").append(times.length - i).append(" more");
        break;
      }
      sb.append(Values.format(values[i]))
          .append('@')
          .append(Values.format(times[i] / 1000.0))
          .append('s');
    }
    return sb.append(']').toString();
  }

  private static Optional<String> fail(String message) {
    return Optional.of(message);
  }
}
