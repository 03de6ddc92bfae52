package io.flightdeck.api;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.BinaryOp;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.VectorMatching;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import io.flightdeck.storage.SeriesSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The chart queries read as stored samples rather than evaluated at steps: a plain selector, or
 * {@code or} of them ({@code loss_metric{run="r"} or tensorboard_scalar{run="r",tag="loss"}}), so
 * every sample counts in its bucket and a run's own gaps stay gaps. For {@code a or b} the series
 * of {@code b} whose labels (as {@code on}/{@code ignoring} say, the metric name left out) match
 * none of {@code a}'s are added whole. PromQL instead takes {@code b} at the steps where {@code a}
 * has no sample; a chart of stored samples keeps {@code a}'s series whole and draws its gaps.
 */
final class CockpitRawSeries {
  /** Counts what a read holds, so a chart's limits stop it early. */
  interface Limits {
    void series(int count);

    void points(long count);
  }

  private final Expr expr;

  private CockpitRawSeries(Expr expr) {
    this.expr = expr;
  }

  /**
   * The raw reading of {@code expr}, or null when it is not a selector or an {@code or} of them.
   */
  static CockpitRawSeries of(Expr expr) {
    return readable(expr) ? new CockpitRawSeries(expr) : null;
  }

  private static boolean readable(Expr expr) {
    return switch (expr) {
      case ParenExpr paren -> readable(paren.expr());
      case VectorSelector selector -> isPlain(selector);
      case BinaryExpr binary ->
          binary.op() == BinaryOp.OR && readable(binary.lhs()) && readable(binary.rhs());
      default -> false;
    };
  }

  private static boolean isPlain(VectorSelector selector) {
    return selector.originalOffset().isZero()
        && selector.originalOffsetExpr() == null
        && selector.timestamp() == null
        && selector.atAnchor() == null
        && !selector.anchored()
        && !selector.smoothed();
  }

  /** Every stored sample of the selected series in {@code [startMs, endMs]}, staleness left out. */
  List<RangeSeries> read(Queryable storage, long startMs, long endMs, Limits limits) {
    try (Querier querier = storage.querier(startMs, endMs)) {
      Reader reader = new Reader(querier, startMs, endMs, limits);
      return reader.read(expr);
    }
  }

  private static final class Reader {
    private final Querier querier;
    private final long startMs;
    private final long endMs;
    private final Limits limits;
    private final SampleBuffer buffer = new SampleBuffer(256);
    private SampleIterator reuse;
    private int series;
    private long points;

    Reader(Querier querier, long startMs, long endMs, Limits limits) {
      this.querier = querier;
      this.startMs = startMs;
      this.endMs = endMs;
      this.limits = limits;
    }

    List<RangeSeries> read(Expr expr) {
      return switch (expr) {
        case ParenExpr paren -> read(paren.expr());
        case VectorSelector selector -> select(selector);
        case BinaryExpr binary -> union(read(binary.lhs()), read(binary.rhs()), binary.matching());
        default -> throw new IllegalStateException("not a raw reading: " + expr);
      };
    }

    private List<RangeSeries> select(VectorSelector selector) {
      SeriesSet set = querier.select(true, selector.matchers().toArray(Matcher[]::new));
      List<Series> all = new ArrayList<>();
      while (set.next()) {
        all.add(set.at());
      }
      series += all.size();
      limits.series(series);
      List<RangeSeries> found = new ArrayList<>(all.size());
      for (Series one : all) {
        buffer.clear();
        reuse = one.iterator(reuse);
        if (reuse.seek(startMs)) {
          reuse.drainTo(buffer, endMs);
        }
        buffer.retainValues(v -> !StaleMarker.is(v));
        points += buffer.size();
        limits.points(points);
        found.add(
            new RangeSeries(
                one.labels(),
                Arrays.copyOf(buffer.timestamps(), buffer.size()),
                Arrays.copyOf(buffer.values(), buffer.size())));
      }
      return found;
    }
  }

  private static List<RangeSeries> union(
      List<RangeSeries> lhs, List<RangeSeries> rhs, VectorMatching matching) {
    Set<Labels> taken = new HashSet<>();
    for (RangeSeries series : lhs) {
      taken.add(signature(series.labels(), matching));
    }
    List<RangeSeries> out = new ArrayList<>(lhs);
    for (RangeSeries series : rhs) {
      if (!taken.contains(signature(series.labels(), matching))) {
        out.add(series);
      }
    }
    return out;
  }

  /** The labels two series are matched on: all but the metric name, or as on/ignoring say. */
  private static Labels signature(Labels labels, VectorMatching matching) {
    boolean on = matching != null && matching.on();
    List<String> named = matching == null ? List.of() : matching.matchingLabels();
    Labels.Builder kept = Labels.builder();
    labels.forEach(
        (name, value) -> {
          boolean listed = named.contains(name);
          if (on ? listed : !listed && !name.equals(Labels.METRIC_NAME)) {
            kept.set(name, value);
          }
        });
    return kept.build();
  }
}
