package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.ValueType;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Function calls. Functions over a range vector read each series once and slide the window along
 * the steps; the others run step by step on their arguments' vectors ({@link InstantFunctions}).
 * {@code label_replace}, {@code label_join}, {@code timestamp} and {@code absent_over_time} need
 * the whole series and are handled here, as in Prometheus.
 */
final class CallEvaluator {
  private final Evaluator ev;

  CallEvaluator(Evaluator ev) {
    this.ev = ev;
  }

  List<EvalSeries> eval(Call call) {
    String name = call.function().name();
    List<Expr> args = call.args();
    switch (name) {
      case "label_replace" -> {
        return labelReplace(call);
      }
      case "label_join" -> {
        return labelJoin(call);
      }
      case "timestamp" -> {
        if (unwrap(args.get(0)) instanceof VectorSelector vs) {
          return timestampOfSelector(vs);
        }
      }
      case "start" -> {
        return ev.constant(ev.ctx.queryStart / 1000.0);
      }
      case "end" -> {
        return ev.constant(ev.ctx.queryEnd / 1000.0);
      }
      case "range" -> {
        return ev.constant((ev.ctx.queryEnd - ev.ctx.queryStart) / 1000.0);
      }
      case "step" -> {
        return ev.constant(ev.ctx.queryStep / 1000.0);
      }
      case "info" -> {
        return new InfoEvaluator(ev).eval(call);
      }
      default -> {}
    }
    int matrixArg = -1;
    for (int i = 0; i < args.size(); i++) {
      if (args.get(i).type() == ValueType.MATRIX) {
        matrixArg = i;
        break;
      }
    }
    if (InstantFunctions.isSort(name) && !ev.isInstant()) {
      ev.ctx.annotations.warn(
          "sort is ineffective for range queries since results are always ordered by labels",
          call.position());
    }
    if (matrixArg < 0) {
      return new InstantFunctions(ev, call).eval();
    }
    return rangeFunction(call, matrixArg);
  }

  static Expr unwrap(Expr e) {
    while (e instanceof ParenExpr p) {
      e = p.expr();
    }
    return e;
  }

  static String stringArg(Expr e) {
    return ((StringLiteral) unwrap(e)).value();
  }

  // ---- range functions ----

  /** One series to slide windows over: its labels and all samples the steps can reach. */
  private record WindowSource(Labels labels, boolean dropName, long[] t, double[] v, int size) {}

  private List<EvalSeries> rangeFunction(Call call, int matrixArg) {
    String name = call.function().name();
    Expr arg = unwrap(call.args().get(matrixArg));
    double[][] scalars = new double[call.args().size() - 1][];
    int k = 0;
    for (int i = 0; i < call.args().size(); i++) {
      if (i != matrixArg) {
        scalars[k++] = ev.scalarPerStep(call.args().get(i));
      }
    }
    if (name.equals("quantile_over_time")) {
      for (double q : scalars[0]) {
        if (Double.isNaN(q) || q < 0 || q > 1) {
          ev.ctx.annotations.warn(
              "quantile value should be between 0 and 1, got " + GoFormat.g(q),
              call.args().get(0).position());
        }
      }
    }
    long rangeMs;
    long offsetMs;
    Long at;
    List<WindowSource> sources;
    if (arg instanceof MatrixSelector m) {
      rangeMs = Durations.rangeMs(m, ev.ctx);
      offsetMs = Durations.offsetMs(m.selector(), ev.ctx);
      at = ev.atTime(m.selector().timestamp(), m.selector().atAnchor());
      sources = null;
    } else {
      Evaluator.SubqueryResult sub = ev.runSubquery((SubqueryExpr) arg);
      rangeMs = sub.rangeMs();
      offsetMs = sub.offsetMs();
      at = sub.at();
      sources = new ArrayList<>(sub.series().size());
      for (EvalSeries s : sub.series()) {
        sources.add(new WindowSource(s.labels, s.dropName, s.timestamps, s.values, s.size));
      }
    }
    boolean keepsName = name.equals("last_over_time") || name.equals("first_over_time");
    // anchored and smoothed windows reach one lookback delta before the range, smoothed ones also
    // one after it.
    VectorSelector extended =
        arg instanceof MatrixSelector m && (m.selector().anchored() || m.selector().smoothed())
            ? m.selector()
            : null;
    if (extended != null) {
      ExtendedRangeFunctions.checkSupported(name, extended);
    }
    long before = extended != null ? ev.ctx.lookbackMs() : 0;
    long after = extended != null && extended.smoothed() ? before : 0;
    if (name.equals("absent_over_time")) {
      return absentOverTime(call, arg, rangeMs, offsetMs, at, sources);
    }
    RangeFunctions.RangeFunction fn =
        extended != null
            ? ExtendedRangeFunctions.of(name, extended)
            : RangeFunctions.BY_NAME.get(name);
    if (fn == null) {
      throw new QueryException(
          QueryException.Kind.EXECUTION, "function " + GoFormat.quote(name) + " is not supported");
    }
    boolean rateLike = name.equals("rate") || name.equals("increase");
    SourceReader reader =
        sources == null
            ? new SourceReader((MatrixSelector) arg, rangeMs + before, offsetMs, after, at)
            : null;
    int count = sources == null ? reader.series.size() : sources.size();
    EvalSeries[] results = new EvalSeries[count];
    SeriesFanOut.forEach(
        ev.ctx,
        count,
        () -> new RangeWorker(reader, rangeMs, scalars.length, rateLike),
        (worker, si) -> {
          WindowSource src = sources == null ? worker.cursor.load(si) : sources.get(si);
          boolean dropName = !keepsName || src.dropName();
          Labels labels =
              dropName && !ev.ctx.delayedNameRemoval
                  ? LabelOps.withoutMetadata(src.labels())
                  : src.labels();
          EvalSeries result =
              slide(fn, worker.window, src, labels, dropName, scalars, offsetMs, at, before, after);
          if (sources == null) {
            ev.ctx.budget.release(src.size());
            ev.ctx.memory.release((long) src.size() * QueryMemory.POINT_BYTES);
          }
          if (result != null) {
            ev.ctx.budget.take(result.size);
            results[si] = result;
          }
        });
    List<EvalSeries> out = new ArrayList<>(count);
    Labels firstMetadata = null;
    boolean mayCollide = false;
    for (int si = 0; si < count; si++) {
      EvalSeries result = results[si];
      if (result == null) {
        continue;
      }
      Labels labels = sources == null ? reader.series.get(si).labels() : sources.get(si).labels();
      if (result.dropName && !ev.ctx.delayedNameRemoval) {
        // Distinct inputs stay distinct when they all lose the same name, type and unit.
        if (firstMetadata == null) {
          firstMetadata = labels;
        } else if (!mayCollide) {
          mayCollide = !LabelOps.sameMetadata(firstMetadata, labels);
        }
      }
      out.add(result);
      String metric = labels.metricName();
      if (rateLike && metric != null && !metric.isEmpty() && !looksLikeCounter(metric)) {
        ev.ctx.annotations.info(
            "metric might not be a counter, name does not end in _total/_sum/_count/_bucket: "
                + GoFormat.quote(metric),
            call.args().get(0).position());
      }
    }
    if (mayCollide) {
      Set<Labels> seen = new HashSet<>();
      for (EvalSeries s : out) {
        if (!seen.add(s.labels)) {
          throw Evaluator.sameLabelset();
        }
      }
    }
    return out;
  }

  /** What one worker of {@link #rangeFunction} reuses from series to series. */
  private static final class RangeWorker {
    final RangeWindow window = new RangeWindow();
    final SourceReader.Cursor cursor;

    RangeWorker(SourceReader reader, long rangeMs, int scalarCount, boolean countsDrops) {
      window.rangeMs = rangeMs;
      window.scalars = new double[scalarCount];
      window.countsDrops = countsDrops;
      cursor = reader == null ? null : reader.new Cursor();
    }
  }

  /** Slides every step's window over one series; null when no step produced a value. */
  private EvalSeries slide(
      RangeFunctions.RangeFunction fn,
      RangeWindow w,
      WindowSource src,
      Labels labels,
      boolean dropName,
      double[][] scalars,
      long offsetMs,
      Long at,
      long before,
      long after) {
    EvalSeries result = null;
    w.t = src.t();
    w.v = src.v();
    if (w.countsDrops) {
      w.countDrops(src.size());
    }
    long rangeMs = w.rangeMs;
    int lo = 0;
    int hi = 0;
    for (int step = 0; step < ev.numSteps; step++) {
      ev.ctx.checkDeadline();
      long ts = ev.stepTime(step);
      long end = (at != null ? at : ts) - offsetMs;
      long start = end - rangeMs;
      while (hi < src.size() && src.t()[hi] <= end + after) {
        hi++;
      }
      while (lo < hi && src.t()[lo] <= start - before) {
        lo++;
      }
      if (lo >= hi) {
        continue;
      }
      w.from = lo;
      w.to = hi;
      w.rangeStart = start;
      w.rangeEnd = end;
      w.stepTime = ts;
      for (int a = 0; a < scalars.length; a++) {
        w.scalars[a] = scalars[a][step];
      }
      if (!fn.apply(w)) {
        continue;
      }
      if (result == null) {
        int capacity = at != null ? ev.numSteps : stepsReached(src, rangeMs + before + after);
        result = new EvalSeries(ev.ctx.memory, labels, dropName, capacity);
      }
      result.add(ts, w.result);
    }
    return result;
  }

  /**
   * At most how many steps can see a sample of {@code src} through windows {@code reachMs} wide:
   * the output's capacity, so that it is neither regrown step by step nor sized for every step of a
   * short series.
   */
  private int stepsReached(WindowSource src, long reachMs) {
    long span = src.t()[src.size() - 1] - src.t()[0] + reachMs;
    return (int) Math.min(ev.numSteps, span / Math.max(1, ev.interval) + 2);
  }

  private static boolean looksLikeCounter(String metric) {
    return metric.endsWith("_total")
        || metric.endsWith("_sum")
        || metric.endsWith("_count")
        || metric.endsWith("_bucket");
  }

  /** Reads each selected series once, over the span every step's window covers. */
  private final class SourceReader {
    final List<Series> series;
    private final long mint;
    private final long maxt;

    SourceReader(MatrixSelector m, long rangeMs, long offsetMs, long afterMs, Long at) {
      this.series = ev.selectSeries(m.selector());
      long firstEnd = (at != null ? at : ev.start) - offsetMs;
      long lastEnd = (at != null ? at : ev.stepTime(Math.max(0, ev.numSteps - 1))) - offsetMs;
      this.mint = firstEnd - rangeMs;
      this.maxt = lastEnd + afterMs;
    }

    /** One worker's iterator and buffer, reused for every series it loads. */
    final class Cursor {
      private SampleIterator it;
      private final SampleBuffer samples = new SampleBuffer(1024);

      /** The series' samples, valid until the next call: the arrays are reused. */
      WindowSource load(int index) {
        Series s = series.get(index);
        it = s.iterator(it);
        samples.clear();
        if (it.seek(mint + 1)) {
          it.drainTo(samples, maxt);
          samples.retainValues(value -> !StaleMarker.is(value));
        }
        int n = samples.size();
        ev.ctx.budget.take(n);
        ev.ctx.memory.charge((long) n * QueryMemory.POINT_BYTES);
        ev.ctx.budget.countRead(n);
        return new WindowSource(s.labels(), false, samples.timestamps(), samples.values(), n);
      }
    }
  }

  private List<EvalSeries> absentOverTime(
      Call call, Expr arg, long rangeMs, long offsetMs, Long at, List<WindowSource> sources) {
    boolean[] present = new boolean[ev.numSteps];
    int count;
    SourceReader reader = null;
    if (sources == null) {
      reader = new SourceReader((MatrixSelector) arg, rangeMs, offsetMs, 0, at);
      count = reader.series.size();
    } else {
      count = sources.size();
    }
    SourceReader.Cursor cursor = reader == null ? null : reader.new Cursor();
    for (int si = 0; si < count; si++) {
      WindowSource src = sources == null ? cursor.load(si) : sources.get(si);
      int lo = 0;
      int hi = 0;
      for (int step = 0; step < ev.numSteps; step++) {
        ev.ctx.checkDeadline();
        long end = (at != null ? at : ev.stepTime(step)) - offsetMs;
        while (hi < src.size() && src.t()[hi] <= end) {
          hi++;
        }
        while (lo < hi && src.t()[lo] <= end - rangeMs) {
          lo++;
        }
        if (lo < hi) {
          present[step] = true;
        }
      }
      if (sources == null) {
        ev.ctx.budget.release(src.size());
        ev.ctx.memory.release((long) src.size() * QueryMemory.POINT_BYTES);
      }
    }
    EvalSeries result =
        new EvalSeries(ev.ctx.memory, absentLabels(call.args().get(0)), true, ev.numSteps);
    for (int step = 0; step < ev.numSteps; step++) {
      if (!present[step]) {
        result.add(ev.stepTime(step), 1);
      }
    }
    return result.size == 0 ? List.of() : List.of(result);
  }

  /** The labels {@code absent} gives: those of equality matchers, unless a name repeats. */
  static Labels absentLabels(Expr arg) {
    List<Matcher> matchers;
    if (arg instanceof VectorSelector vs) {
      matchers = vs.matchers();
    } else if (arg instanceof MatrixSelector m) {
      matchers = m.selector().matchers();
    } else {
      return Labels.EMPTY;
    }
    Labels.Builder b = Labels.builder();
    Set<String> has = new HashSet<>();
    for (Matcher m : matchers) {
      if (m.name().equals(Labels.METRIC_NAME)) {
        continue;
      }
      if (m.type() == Matcher.Type.EQUAL && has.add(m.name())) {
        b.set(m.name(), m.value());
      } else {
        b.remove(m.name());
      }
    }
    return b.build();
  }

  // ---- functions over whole series ----

  private List<EvalSeries> timestampOfSelector(VectorSelector vs) {
    List<EvalSeries> result = ev.selectInstant(vs, true);
    for (EvalSeries s : result) {
      if (!ev.ctx.delayedNameRemoval) {
        s.labels = LabelOps.withoutMetadata(s.labels);
      }
      s.dropName = true;
    }
    if (!ev.ctx.delayedNameRemoval) {
      Set<Labels> seen = new HashSet<>();
      for (EvalSeries s : result) {
        if (!seen.add(s.labels)) {
          throw Evaluator.sameLabelset();
        }
      }
    }
    return result;
  }

  private List<EvalSeries> labelReplace(Call call) {
    List<Expr> args = call.args();
    String dst = stringArg(args.get(1));
    String replacement = stringArg(args.get(2));
    String src = stringArg(args.get(3));
    String regex = stringArg(args.get(4));
    com.google.re2j.Pattern pattern;
    try {
      pattern = com.google.re2j.Pattern.compile("^(?s:" + regex + ")$");
    } catch (com.google.re2j.PatternSyntaxException e) {
      throw new QueryException(
          QueryException.Kind.EXECUTION, "invalid regular expression in label_replace(): " + regex);
    }
    if (!LabelNames.isValid(dst)) {
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          "invalid destination label name in label_replace(): " + dst);
    }
    List<EvalSeries> matrix = ev.eval(args.get(0));
    for (EvalSeries s : matrix) {
      String value = s.labels.get(src);
      com.google.re2j.Matcher m = pattern.matcher(value == null ? "" : value);
      if (m.matches()) {
        String replaced = RegexTemplate.expand(replacement, m);
        s.labels = s.labels.toBuilder().set(dst, replaced).build();
        if (dst.equals(Labels.METRIC_NAME)) {
          s.dropName = false;
        }
      }
    }
    return ev.mergeSameLabels(matrix);
  }

  private List<EvalSeries> labelJoin(Call call) {
    List<Expr> args = call.args();
    String dst = stringArg(args.get(1));
    String separator = stringArg(args.get(2));
    List<String> sources = new ArrayList<>();
    for (int i = 3; i < args.size(); i++) {
      String source = stringArg(args.get(i));
      if (!LabelNames.isValid(source)) {
        throw new QueryException(
            QueryException.Kind.EXECUTION, "invalid source label name in label_join(): " + source);
      }
      sources.add(source);
    }
    if (!LabelNames.isValid(dst)) {
      throw new QueryException(
          QueryException.Kind.EXECUTION, "invalid destination label name in label_join(): " + dst);
    }
    List<EvalSeries> matrix = ev.eval(args.get(0));
    for (EvalSeries s : matrix) {
      List<String> values = new ArrayList<>(sources.size());
      for (String source : sources) {
        String v = s.labels.get(source);
        values.add(v == null ? "" : v);
      }
      s.labels = s.labels.toBuilder().set(dst, String.join(separator, values)).build();
      if (dst.equals(Labels.METRIC_NAME)) {
        s.dropName = false;
      }
    }
    return ev.mergeSameLabels(matrix);
  }
}
