package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryException;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.training.CorrelationGrid;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A correlation's target: the expression evaluated at each instant of the grid (the mean of its
 * series where it gives several; NaN where it gives none), and the labels of every series its
 * selectors read, which are never candidates (they are the target).
 */
record RunsCorrelateTarget(double[] values, List<Labels> read) {
  /** The most series a target's selectors may read to be left out of the candidates. */
  static final int MAX_READ = 10_000;

  static RunsCorrelateTarget evaluate(
      Engine engine, Queryable storage, Expr expr, String text, CorrelationGrid grid) {
    QueryValue value;
    try {
      value = engine.rangeQuery(storage, expr, grid.fromMs(), grid.lastMs(), grid.stepMs()).value();
    } catch (QueryException e) {
      if (e.kind() != QueryException.Kind.BAD_DATA) {
        throw e;
      }
      throw ApiException.badData("invalid field target: " + e.getMessage());
    }
    if (!(value instanceof MatrixValue matrix)) {
      throw ApiException.badData(
          "invalid field target: " + RunsApi.quote(text) + " does not give series");
    }
    double[] sum = new double[grid.points()];
    int[] count = new int[grid.points()];
    for (RangeSeries series : matrix.series()) {
      for (int i = 0; i < series.size(); i++) {
        long offset = series.timestamps()[i] - grid.fromMs();
        int k = (int) (offset / grid.stepMs());
        if (offset % grid.stepMs() == 0
            && k >= 0
            && k < sum.length
            && Double.isFinite(series.values()[i])) {
          sum[k] += series.values()[i];
          count[k]++;
        }
      }
    }
    double[] values = new double[sum.length];
    boolean any = false;
    for (int k = 0; k < values.length; k++) {
      values[k] = count[k] == 0 ? Double.NaN : sum[k] / count[k];
      any |= count[k] > 0;
    }
    if (!any) {
      throw ApiException.badData(
          "invalid field target: "
              + RunsApi.quote(text)
              + " gives no value between the baseline's start and end");
    }
    return new RunsCorrelateTarget(values, read(storage, expr, grid));
  }

  private static List<Labels> read(Queryable storage, Expr expr, CorrelationGrid grid) {
    List<Labels> read = new ArrayList<>();
    try (Querier querier = storage.querier(grid.fromMs() - 600_000, grid.lastMs())) {
      for (VectorSelector selector : selectors(expr)) {
        SeriesSet set = querier.select(false, selector.matchers().toArray(Matcher[]::new));
        while (set.next() && read.size() < MAX_READ) {
          read.add(set.at().labels());
        }
      }
    }
    return read;
  }

  /** Every vector selector of the tree, walked without recursion. */
  static List<VectorSelector> selectors(Expr root) {
    List<VectorSelector> found = new ArrayList<>();
    Deque<Expr> pending = new ArrayDeque<>();
    pending.push(root);
    while (!pending.isEmpty()) {
      switch (pending.pop()) {
        case VectorSelector e -> found.add(e);
        case MatrixSelector e -> pending.push(e.selector());
        case AggregateExpr e -> {
          pending.push(e.expr());
          if (e.param() != null) {
            pending.push(e.param());
          }
        }
        case BinaryExpr e -> {
          pending.push(e.lhs());
          pending.push(e.rhs());
        }
        case Call e -> e.args().forEach(pending::push);
        case ParenExpr e -> pending.push(e.expr());
        case UnaryExpr e -> pending.push(e.expr());
        case SubqueryExpr e -> pending.push(e.expr());
        default -> {} // literals
      }
    }
    return found;
  }
}
