package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
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
import io.flightdeck.promql.parser.ValueType;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.StorageException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * One query from start to finish: find the time span its selectors read, open one storage snapshot
 * over it, evaluate, then shape the result as the API returns it (vector, matrix, scalar or
 * string), with names dropped and series sorted as Prometheus does.
 */
final class QueryRun {
  private final Queryable storage;
  private final EngineOptions options;
  private final Expr expr;
  private final long start;
  private final long end;
  private final long step;
  private final boolean instant;
  private final long deadline;
  private final String query;
  private final QueryMemory.Pool memoryPool;
  private final BooleanSupplier cancelSignal;
  private volatile QueryContext ctx;
  private volatile boolean canceled;

  QueryRun(
      Queryable storage,
      EngineOptions options,
      Expr expr,
      long start,
      long end,
      long step,
      boolean instant,
      long deadline,
      String query,
      QueryMemory.Pool memoryPool,
      BooleanSupplier cancelSignal) {
    this.storage = storage;
    this.options = options;
    this.expr = expr;
    this.start = start;
    this.end = end;
    this.step = step;
    this.instant = instant;
    this.deadline = deadline;
    this.query = query;
    this.memoryPool = memoryPool;
    this.cancelSignal = cancelSignal;
  }

  QueryValue execute() {
    ValueType type = expr.type();
    if (!instant && type != ValueType.VECTOR && type != ValueType.SCALAR) {
      throw new QueryException(
          QueryException.Kind.BAD_DATA,
          "invalid expression type \""
              + typeName(type)
              + "\" for range query, must be Scalar or instant Vector");
    }
    TimeSpan span = new TimeSpan();
    span.walk(expr, 0, 0, null);
    long mint = span.found ? span.mint : start;
    long maxt = span.found ? span.maxt : end;
    Querier querier;
    try {
      querier = storage.querier(mint, Math.max(mint, maxt));
    } catch (StorageException e) {
      throw new QueryException(QueryException.Kind.UNAVAILABLE, e.getMessage(), e);
    }
    try (querier) {
      ctx =
          new QueryContext(querier, options, deadline, start, end, instant ? 0 : step, memoryPool);
      ctx.cancelWhen(cancelSignal);
      if (canceled) {
        ctx.cancel();
      }
      Evaluator ev = new Evaluator(ctx, start, end, instant ? 1 : step);
      if (expr.type() == ValueType.STRING) {
        return new StringValue(start, CallEvaluator.stringArg(expr));
      }
      List<EvalSeries> result = ev.eval(expr);
      return shape(ev, result, type);
    } catch (StorageException e) {
      throw new QueryException(QueryException.Kind.UNAVAILABLE, e.getMessage(), e);
    } finally {
      if (ctx != null) {
        ctx.memory.close();
      }
    }
  }

  private QueryValue shape(Evaluator ev, List<EvalSeries> result, ValueType type) {
    if (type == ValueType.SCALAR) {
      EvalSeries s = result.isEmpty() ? null : result.get(0);
      if (instant) {
        return new ScalarValue(start, s == null || s.size == 0 ? Double.NaN : s.values[0]);
      }
      List<RangeSeries> series = new ArrayList<>();
      if (s != null && s.size > 0) {
        series.add(s.toRangeSeries(Labels.EMPTY));
      }
      return new MatrixValue(series);
    }
    if (ctx.delayedNameRemoval) {
      for (EvalSeries s : result) {
        if (s.dropName) {
          s.labels = LabelOps.withoutMetadata(s.labels);
        }
      }
    }
    if (instant && type == ValueType.VECTOR) {
      List<Sample> samples = new ArrayList<>(result.size());
      Set<Labels> seen = new HashSet<>();
      for (EvalSeries s : result) {
        if (!seen.add(s.labels)) {
          throw Evaluator.sameLabelset();
        }
        samples.add(new Sample(s.labels, start, s.values[0]));
      }
      return new VectorValue(samples);
    }
    List<EvalSeries> merged = ctx.delayedNameRemoval ? ev.mergeSameLabels(result) : result;
    List<RangeSeries> series = new ArrayList<>(merged.size());
    for (EvalSeries s : merged) {
      if (s.size > 0) {
        series.add(s.toRangeSeries(s.labels));
      }
    }
    series.sort(Comparator.comparing(RangeSeries::labels));
    return new MatrixValue(series);
  }

  private static String typeName(ValueType type) {
    return switch (type) {
      case MATRIX -> "range vector";
      case VECTOR -> "instant vector";
      case SCALAR -> "scalar";
      case STRING -> "string";
    };
  }

  /** Stops the query at its next check; safe from any thread, before or during execution. */
  void cancel() {
    canceled = true;
    QueryContext running = ctx;
    if (running != null) {
      running.cancel();
    }
  }

  List<String> warnings() {
    return ctx == null ? List.of() : ctx.annotations.warnings(query);
  }

  List<String> infos() {
    return ctx == null ? List.of() : ctx.annotations.infos(query);
  }

  long samplesRead() {
    return ctx == null ? 0 : ctx.budget.read();
  }

  long peakSamples() {
    return ctx == null ? 0 : ctx.budget.peak();
  }

  long peakMemoryBytes() {
    return ctx == null ? 0 : ctx.memory.peak();
  }

  /**
   * The span of sample time the query can read: each selector's window at every step, shifted by
   * its own and its enclosing subqueries' offsets and ranges, or pinned by {@code @}.
   */
  private final class TimeSpan {
    long mint = Long.MAX_VALUE;
    long maxt = Long.MIN_VALUE;
    boolean found;
    private final QueryContext durations =
        new QueryContext(null, options, deadline, start, end, instant ? 0 : step);

    void walk(Expr e, long outerOffset, long outerRange, Long outerAt) {
      switch (e) {
        case ParenExpr p -> walk(p.expr(), outerOffset, outerRange, outerAt);
        case UnaryExpr u -> walk(u.expr(), outerOffset, outerRange, outerAt);
        case BinaryExpr b -> {
          walk(b.lhs(), outerOffset, outerRange, outerAt);
          walk(b.rhs(), outerOffset, outerRange, outerAt);
        }
        case AggregateExpr a -> {
          walk(a.expr(), outerOffset, outerRange, outerAt);
          if (a.param() != null) {
            walk(a.param(), outerOffset, outerRange, outerAt);
          }
        }
        case Call c -> {
          for (Expr arg : c.args()) {
            walk(arg, outerOffset, outerRange, outerAt);
          }
        }
        case VectorSelector vs ->
            cover(vs, lookback(), extendedAfter(vs), outerOffset, outerRange, outerAt, durations);
        case MatrixSelector m -> {
          // anchored and smoothed read one lookback delta before the range, smoothed one after.
          VectorSelector vs = m.selector();
          long before = vs.anchored() || vs.smoothed() ? lookback() : 0;
          cover(
              vs,
              Durations.rangeMs(m, durations) + before,
              extendedAfter(vs),
              outerOffset,
              outerRange,
              outerAt,
              durations);
        }
        case SubqueryExpr sq -> {
          Long at = at(sq.timestamp(), sq.atAnchor());
          long stepMs = Durations.stepMs(sq, durations);
          walk(
              sq.expr(),
              outerOffset + Durations.offsetMs(sq, durations),
              outerRange + Durations.rangeMs(sq, durations) + stepMs,
              at != null ? at : outerAt);
        }
        case NumberLiteral n -> {}
        case StringLiteral s -> {}
      }
    }

    private long lookback() {
      return options.lookbackDelta().toMillis();
    }

    private long extendedAfter(VectorSelector vs) {
      return vs.smoothed() ? lookback() : 0;
    }

    private void cover(
        VectorSelector vs,
        long window,
        long after,
        long outerOffset,
        long outerRange,
        Long outerAt,
        QueryContext durations) {
      Long at = at(vs.timestamp(), vs.atAnchor());
      long first = at != null ? at : outerAt != null ? outerAt : start;
      long last = at != null ? at : outerAt != null ? outerAt : end;
      long offset = Durations.offsetMs(vs, durations) + outerOffset;
      mint = Math.min(mint, first - window - offset - outerRange);
      maxt = Math.max(maxt, last - offset + after);
      found = true;
    }

    private Long at(Long timestamp, io.flightdeck.promql.parser.AtAnchor anchor) {
      if (timestamp != null) {
        return timestamp;
      }
      if (anchor == null) {
        return null;
      }
      return switch (anchor) {
        case START -> start;
        case END -> end;
      };
    }
  }
}
