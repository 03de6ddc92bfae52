package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.NumberLiteral;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.UnaryOp;
import io.flightdeck.promql.parser.ValueType;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Evaluates an expression at every step {@code start, start+interval, ..., end}, the way
 * Prometheus's engine does: each instant-vector or scalar node yields series with one point per
 * step where it has a value; operators, aggregations and functions work step by step on the vectors
 * gathered from their arguments. Range functions read each series once and slide their window over
 * it (see {@link RangeFunctionEvaluator}). A subquery runs a nested evaluator over its own steps.
 */
final class Evaluator {
  final QueryContext ctx;
  final long start;
  final long end;
  final long interval;
  final int numSteps;

  Evaluator(QueryContext ctx, long start, long end, long interval) {
    this.ctx = ctx;
    this.start = start;
    this.end = end;
    this.interval = interval;
    this.numSteps = end < start ? 0 : (int) ((end - start) / interval) + 1;
  }

  boolean isInstant() {
    return start == end;
  }

  /** Evaluates an instant-vector or scalar expression into series over the steps. */
  List<EvalSeries> eval(Expr expr) {
    ctx.checkDeadline();
    return switch (expr) {
      case ParenExpr p -> eval(p.expr());
      case NumberLiteral n -> constant(n.value());
      case VectorSelector vs -> selectInstant(vs);
      case UnaryExpr u -> unary(u);
      case BinaryExpr b -> new BinaryEvaluator(this).eval(b);
      case AggregateExpr a -> new AggregationEvaluator(this).eval(a);
      case Call c -> new CallEvaluator(this).eval(c);
      case MatrixSelector m -> rawMatrix(m);
      case SubqueryExpr s -> runSubquery(s).series();
      case StringLiteral s ->
          throw new IllegalStateException("string literal evaluated as a vector: " + s);
    };
  }

  /** A series with the same value at every step and no labels: how scalars travel. */
  List<EvalSeries> constant(double value) {
    EvalSeries series = new EvalSeries(ctx.memory, Labels.EMPTY, false, numSteps);
    for (int i = 0; i < numSteps; i++) {
      series.add(start + i * interval, value);
    }
    return List.of(series);
  }

  /** The value of a scalar-typed expression at each step. */
  double[] scalarPerStep(Expr expr) {
    List<EvalSeries> result = eval(expr);
    double[] values = new double[numSteps];
    java.util.Arrays.fill(values, Double.NaN);
    if (!result.isEmpty()) {
      EvalSeries s = result.get(0);
      for (int i = 0; i < s.size; i++) {
        values[stepIndex(s.timestamps[i])] = s.values[i];
      }
    }
    return values;
  }

  int stepIndex(long t) {
    return (int) ((t - start) / interval);
  }

  long stepTime(int step) {
    return start + step * interval;
  }

  private List<EvalSeries> unary(UnaryExpr u) {
    List<EvalSeries> input = eval(u.expr());
    if (u.op() == UnaryOp.PLUS) {
      return input;
    }
    for (EvalSeries s : input) {
      if (!ctx.delayedNameRemoval) {
        s.labels = LabelOps.withoutMetadata(s.labels);
      }
      s.dropName = true;
      for (int i = 0; i < s.size; i++) {
        s.values[i] = -s.values[i];
      }
    }
    return ctx.delayedNameRemoval ? input : mergeSameLabels(input);
  }

  // ---- selectors ----

  /** The lookup time of a selector at a step: its {@code @} time if fixed, minus its offset. */
  long referenceTime(VectorSelector vs, long stepTime) {
    Long at = atTime(vs.timestamp(), vs.atAnchor());
    long base = at != null ? at : stepTime;
    return base - Durations.offsetMs(vs, ctx);
  }

  Long atTime(Long timestamp, io.flightdeck.promql.parser.AtAnchor anchor) {
    if (timestamp != null) {
      return timestamp;
    }
    if (anchor == null) {
      return null;
    }
    return switch (anchor) {
      case START -> ctx.queryStart;
      case END -> ctx.queryEnd;
    };
  }

  List<Series> selectSeries(VectorSelector vs) {
    SeriesSet set = ctx.querier.select(false, vs.matchers().toArray(Matcher[]::new));
    List<Series> out = new ArrayList<>();
    while (set.next()) {
      ctx.checkDeadline();
      out.add(set.at());
    }
    for (String warning : set.warnings()) {
      ctx.annotations.warn(warning, null);
    }
    return out;
  }

  /** An instant vector selector: per step, the newest sample within the lookback window. */
  private List<EvalSeries> selectInstant(VectorSelector vs) {
    return vs.smoothed() ? new SmoothedSelector(this).eval(vs) : selectInstant(vs, false);
  }

  /**
   * Like {@link #selectInstant(VectorSelector)}; with {@code timestamps}, a point's value is the
   * found sample's own timestamp in seconds (for {@code timestamp()}).
   */
  List<EvalSeries> selectInstant(VectorSelector vs, boolean timestamps) {
    long lookback = ctx.lookbackMs();
    long offset = Durations.offsetMs(vs, ctx);
    Long at = atTime(vs.timestamp(), vs.atAnchor());
    // When the lookback windows of consecutive steps overlap, every sample of the span is read
    // anyway: copy the span chunk by chunk, then walk the arrays. Otherwise seek from window to
    // window, skipping the chunks between them.
    boolean copySpan = at == null && numSteps > 1 && interval <= lookback;
    List<Series> selected = selectSeries(vs);
    EvalSeries[] results = new EvalSeries[selected.size()];
    SeriesFanOut.forEach(
        ctx,
        selected.size(),
        () -> new SelectorWorker(copySpan),
        (worker, index) -> {
          Series series = selected.get(index);
          worker.it = series.iterator(worker.it);
          EvalSeries result =
              worker.span != null
                  ? stepsOverSpan(series, worker.it, worker.span, offset, lookback, timestamps)
                  : stepsBySeeking(series, worker.it, offset, lookback, at, timestamps);
          if (result != null) {
            ctx.budget.take(result.size);
            ctx.budget.countRead(result.size);
            results[index] = result;
          }
        });
    List<EvalSeries> out = new ArrayList<>(results.length);
    for (EvalSeries result : results) {
      if (result != null) {
        out.add(result);
      }
    }
    return out;
  }

  /** What one worker of {@link #selectInstant} reuses from series to series. */
  private static final class SelectorWorker {
    SampleIterator it;
    final SampleBuffer span;

    SelectorWorker(boolean copySpan) {
      span = copySpan ? new SampleBuffer(256) : null;
    }
  }

  /** {@link #selectInstant} for one series, seeking from each step's window to the next. */
  private EvalSeries stepsBySeeking(
      Series series, SampleIterator it, long offset, long lookback, Long at, boolean timestamps) {
    EvalSeries result = null;
    // Walk forward once: steps ascend, so does the reference time (or it stays fixed with @).
    long firstRef = (at != null ? at : start) - offset;
    boolean has = it.seek(firstRef - lookback + 1);
    long prevT = Long.MIN_VALUE;
    double prevV = 0;
    boolean hasPrev = false;
    for (int step = 0; step < numSteps; step++) {
      ctx.checkDeadline();
      long ts = stepTime(step);
      long ref = (at != null ? at : ts) - offset;
      if (has && it.timestamp() <= ref - lookback) {
        // Samples this old can never be in a window again: skip them without decoding each.
        hasPrev = false;
        has = it.seek(ref - lookback + 1);
      }
      while (has && it.timestamp() <= ref) {
        prevT = it.timestamp();
        prevV = it.value();
        hasPrev = true;
        has = it.next();
      }
      if (!hasPrev || prevT <= ref - lookback || StaleMarker.is(prevV)) {
        continue;
      }
      if (result == null) {
        // With @ every later step repeats the point; otherwise grow as points come.
        int capacity = at != null ? numSteps - step : Math.min(numSteps - step, 64);
        result = new EvalSeries(ctx.memory, series.labels(), false, capacity);
      }
      result.add(ts, timestamps ? prevT / 1000.0 : prevV);
    }
    return result;
  }

  /** {@link #selectInstant} for one series from a copy of every sample its steps can see. */
  private EvalSeries stepsOverSpan(
      Series series,
      SampleIterator it,
      SampleBuffer span,
      long offset,
      long lookback,
      boolean timestamps) {
    span.clear();
    if (it.seek(start - offset - lookback + 1)) {
      it.drainTo(span, end - offset);
    }
    long[] t = span.timestamps();
    double[] v = span.values();
    int n = span.size();
    EvalSeries result = null;
    int next = 0;
    for (int step = 0; step < numSteps && n > 0; step++) {
      ctx.checkDeadline();
      long ts = stepTime(step);
      long ref = ts - offset;
      while (next < n && t[next] <= ref) {
        next++;
      }
      int latest = next - 1;
      if (latest < 0 || t[latest] <= ref - lookback || StaleMarker.is(v[latest])) {
        continue;
      }
      if (result == null) {
        // No step after the newest sample's lookback window has a point: a series that stopped
        // (or started) within the range holds only the steps it reaches, not every step.
        long lastStepReached =
            Math.min(numSteps - 1L, (t[n - 1] + lookback + offset - start) / interval);
        int capacity = (int) Math.max(1, lastStepReached - step + 1);
        result = new EvalSeries(ctx.memory, series.labels(), false, capacity);
      }
      result.add(ts, timestamps ? t[latest] / 1000.0 : v[latest]);
    }
    return result;
  }

  /**
   * A range selector evaluated on its own (an instant query for {@code x[5m]}): the raw samples in
   * the window, stale markers left out; {@code anchored} and {@code smoothed} ones framed by their
   * values at the range ends.
   */
  private List<EvalSeries> rawMatrix(MatrixSelector m) {
    VectorSelector vs = m.selector();
    long rangeEnd = referenceTime(vs, start);
    long rangeStart = rangeEnd - Durations.rangeMs(m, ctx);
    boolean extended = vs.anchored() || vs.smoothed();
    long maxt = rangeEnd + (vs.smoothed() ? ctx.lookbackMs() : 0);
    long mint = rangeStart - (extended ? ctx.lookbackMs() : 0);
    List<EvalSeries> out = new ArrayList<>();
    SampleIterator it = null;
    for (Series series : selectSeries(vs)) {
      ctx.checkDeadline();
      it = series.iterator(it);
      EvalSeries result = null;
      if (it.seek(mint + 1)) {
        do {
          long t = it.timestamp();
          if (t > maxt) {
            break;
          }
          double v = it.value();
          if (StaleMarker.is(v)) {
            continue;
          }
          if (result == null) {
            result = new EvalSeries(ctx.memory, series.labels(), false, 16);
          }
          result.add(t, v);
        } while (it.next());
      }
      if (result != null) {
        // Counted per series, not per sample: the budget is shared by SeriesFanOut's workers.
        ctx.budget.take(result.size);
        ctx.budget.countRead(result.size);
      }
      if (result != null && extended) {
        result = ExtendedRangeFunctions.frame(result, rangeStart, rangeEnd, vs.smoothed());
      }
      if (result != null) {
        out.add(result);
      }
    }
    return out;
  }

  // ---- subqueries ----

  /** The points of a subquery over its own steps, and the window each outer step reads. */
  record SubqueryResult(List<EvalSeries> series, long offsetMs, Long at, long rangeMs) {}

  SubqueryResult runSubquery(SubqueryExpr sq) {
    long offset = Durations.offsetMs(sq, ctx);
    long range = Durations.rangeMs(sq, ctx);
    long step = Durations.stepMs(sq, ctx);
    Long at = atTime(sq.timestamp(), sq.atAnchor());
    long outerStart = at != null ? at : start;
    long outerEnd = at != null ? at : start + (numSteps - 1) * interval;
    long subEnd = outerEnd - offset;
    long lowest = outerStart - offset - range;
    long subStart = step * Math.floorDiv(lowest, step);
    if (subStart <= lowest) {
      subStart += step;
    }
    Evaluator inner = new Evaluator(ctx, subStart, subEnd, step);
    List<EvalSeries> series = subEnd < subStart ? List.of() : inner.eval(sq.expr());
    return new SubqueryResult(series, offset, at, range);
  }

  // ---- stepping ----

  /** A function of one step: the vectors of each argument at that step, and the step's time. */
  interface StepFunction {
    List<EvalSample> apply(List<List<EvalSample>> args, long ts);
  }

  /**
   * Gathers the arguments' vectors step by step, applies {@code fn}, and collects the output
   * series. Fails, as Prometheus does, when one step yields two samples with the same labels.
   */
  List<EvalSeries> stepwise(List<List<EvalSeries>> inputs, StepFunction fn) {
    int[][] cursors = new int[inputs.size()][];
    for (int i = 0; i < inputs.size(); i++) {
      cursors[i] = new int[inputs.get(i).size()];
    }
    List<List<EvalSample>> vectors = new ArrayList<>(inputs.size());
    for (int i = 0; i < inputs.size(); i++) {
      vectors.add(new ArrayList<>());
    }
    Map<Labels, EvalSeries> byLabels = new HashMap<>();
    Map<Labels, Long> lastStep = new HashMap<>();
    List<EvalSeries> out = new ArrayList<>();
    for (int step = 0; step < numSteps; step++) {
      ctx.checkDeadline();
      long ts = stepTime(step);
      for (int i = 0; i < inputs.size(); i++) {
        gather(inputs.get(i), cursors[i], ts, vectors.get(i));
      }
      List<EvalSample> result = fn.apply(vectors, ts);
      if (isInstant()) {
        if (!ctx.delayedNameRemoval) {
          checkNoDuplicates(result);
        }
        for (EvalSample s : result) {
          EvalSeries series = new EvalSeries(ctx.memory, s.labels(), s.dropName(), 1);
          series.add(ts, s.value());
          out.add(series);
        }
        ctx.budget.take(result.size());
        return out;
      }
      for (EvalSample s : result) {
        EvalSeries series = byLabels.get(s.labels());
        if (series == null) {
          series = new EvalSeries(ctx.memory, s.labels(), s.dropName(), Math.min(numSteps, 64));
          byLabels.put(s.labels(), series);
          out.add(series);
        } else if (lastStep.get(s.labels()) == ts) {
          throw sameLabelset();
        }
        lastStep.put(s.labels(), ts);
        series.add(ts, s.value());
      }
      ctx.budget.take(result.size());
    }
    return out;
  }

  /** The samples of {@code matrix} at time {@code ts}, advancing each series' cursor. */
  static void gather(List<EvalSeries> matrix, int[] cursors, long ts, List<EvalSample> into) {
    into.clear();
    for (int s = 0; s < matrix.size(); s++) {
      EvalSeries series = matrix.get(s);
      int c = cursors[s];
      if (c < series.size && series.timestamps[c] == ts) {
        into.add(new EvalSample(series.labels, series.values[c], series.dropName));
        cursors[s] = c + 1;
      }
    }
  }

  static QueryException sameLabelset() {
    return new QueryException(
        QueryException.Kind.EXECUTION, "vector cannot contain metrics with the same labelset");
  }

  static void checkNoDuplicates(List<EvalSample> vector) {
    if (vector.size() < 2) {
      return;
    }
    java.util.Set<Labels> seen = new java.util.HashSet<>();
    for (EvalSample s : vector) {
      if (!seen.add(s.labels())) {
        throw sameLabelset();
      }
    }
  }

  /**
   * Joins series that became equal once their names were dropped, as long as they never have a
   * point at the same step (Prometheus's {@code mergeSeriesWithSameLabelset}).
   */
  List<EvalSeries> mergeSameLabels(List<EvalSeries> matrix) {
    if (matrix.size() < 2) {
      return matrix;
    }
    Map<Labels, EvalSeries> byLabels = new java.util.LinkedHashMap<>();
    boolean merged = false;
    for (EvalSeries s : matrix) {
      EvalSeries existing = byLabels.putIfAbsent(s.labels, s);
      if (existing != null) {
        merged = true;
        byLabels.put(s.labels, mergePoints(existing, s));
      }
    }
    return merged ? new ArrayList<>(byLabels.values()) : matrix;
  }

  private EvalSeries mergePoints(EvalSeries a, EvalSeries b) {
    EvalSeries out =
        new EvalSeries(ctx.memory, a.labels, a.dropName || b.dropName, a.size + b.size);
    int i = 0;
    int j = 0;
    while (i < a.size || j < b.size) {
      if (j >= b.size || (i < a.size && a.timestamps[i] < b.timestamps[j])) {
        out.add(a.timestamps[i], a.values[i]);
        i++;
      } else if (i >= a.size || b.timestamps[j] < a.timestamps[i]) {
        out.add(b.timestamps[j], b.values[j]);
        j++;
      } else {
        throw sameLabelset();
      }
    }
    return out;
  }

  static boolean isScalar(Expr e) {
    return e.type() == ValueType.SCALAR;
  }
}
