package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.AggregateOp;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.GoFormat;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.StringLiteral;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Aggregation operators. Series are assigned to groups once (by their {@code by}/{@code without}
 * labels); each step then folds the group's samples with Prometheus's arithmetic: Kahan-Neumaier
 * compensated sums, an incremental mean once a sum overflows, Welford's variance, and NaN rules for
 * {@code min}/{@code max}/{@code topk}.
 */
final class AggregationEvaluator {
  private final Evaluator ev;

  AggregationEvaluator(Evaluator ev) {
    this.ev = ev;
  }

  List<EvalSeries> eval(AggregateExpr e) {
    if (e.op() == AggregateOp.COUNT_VALUES) {
      return countValues(e);
    }
    double[] params = e.param() == null ? null : ev.scalarPerStep(e.param());
    List<EvalSeries> input = ev.eval(e.expr());
    Set<String> grouping = new TreeSet<>(e.grouping());
    return switch (e.op()) {
      case TOPK, BOTTOMK, LIMITK, LIMIT_RATIO -> selecting(e, input, grouping, params);
      default -> folding(e, input, grouping, params);
    };
  }

  private int[] assignGroups(
      List<EvalSeries> input, Set<String> grouping, boolean without, List<Labels> groupLabels) {
    Map<String, Integer> groupIndex = new HashMap<>();
    int[] groupOf = new int[input.size()];
    for (int i = 0; i < input.size(); i++) {
      Labels labels = input.get(i).labels;
      String key =
          without || !grouping.isEmpty() ? LabelOps.signature(labels, grouping, !without) : "";
      Integer index = groupIndex.get(key);
      if (index == null) {
        index = groupLabels.size();
        groupIndex.put(key, index);
        groupLabels.add(groupingLabels(labels, grouping, without));
      }
      groupOf[i] = index;
    }
    return groupOf;
  }

  private static Labels groupingLabels(Labels labels, Set<String> grouping, boolean without) {
    if (without) {
      Set<String> dropped = new TreeSet<>(grouping);
      dropped.add(Labels.METRIC_NAME);
      return LabelOps.drop(labels, dropped);
    }
    return grouping.isEmpty() ? Labels.EMPTY : LabelOps.keep(labels, grouping);
  }

  /**
   * Above this many cells (groups x steps), folding goes step by step through cells for one step
   * (Prometheus's order), instead of series by series through cells for every step: sparse inputs
   * of many groups over many steps would otherwise allocate cells no sample fills.
   */
  private static final long SERIES_MAJOR_MAX_CELLS = 1 << 18;

  private List<EvalSeries> folding(
      AggregateExpr e, List<EvalSeries> input, Set<String> grouping, double[] params) {
    AggregateOp op = e.op();
    if (op == AggregateOp.QUANTILE) {
      warnInvalidQuantiles(e, params);
    }
    List<Labels> groupLabels = new ArrayList<>();
    int[] groupOf = assignGroups(input, grouping, e.without(), groupLabels);
    int groups = groupLabels.size();
    EvalSeries[] outputs = new EvalSeries[groups];
    if ((long) groups * ev.numSteps <= SERIES_MAJOR_MAX_CELLS) {
      foldSeriesBySeries(op, input, groupOf, groupLabels, params, outputs);
    } else {
      foldStepByStep(op, input, groupOf, groupLabels, params, outputs);
    }
    List<EvalSeries> out = new ArrayList<>();
    for (EvalSeries s : outputs) {
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Each series in turn adds its samples to its group's cells, one per step: every array is read
   * and written in order. Each cell still sees the series in input order, so the arithmetic, and
   * every result to the last bit, is that of {@link #foldStepByStep}.
   */
  private void foldSeriesBySeries(
      AggregateOp op,
      List<EvalSeries> input,
      int[] groupOf,
      List<Labels> groupLabels,
      double[] params,
      EvalSeries[] outputs) {
    int steps = ev.numSteps;
    ev.ctx.memory.charge((long) groupLabels.size() * steps * FoldingCells.BYTES_PER_CELL);
    FoldingCells cells = new FoldingCells(op, groupLabels.size() * steps);
    for (int si = 0; si < input.size(); si++) {
      ev.ctx.checkDeadline();
      EvalSeries series = input.get(si);
      int base = groupOf[si] * steps;
      for (int c = 0; c < series.size; c++) {
        cells.add(base + stepOf(series.timestamps[c]), series.values[c], series.dropName);
      }
    }
    long produced = 0;
    for (int g = 0; g < outputs.length; g++) {
      int base = g * steps;
      for (int step = 0; step < steps; step++) {
        ev.ctx.checkDeadline();
        int cell = base + step;
        if (!cells.seen(cell)) {
          continue;
        }
        emit(outputs, groupLabels, g, cells, cell, step, params);
        produced++;
      }
    }
    ev.ctx.budget.take(produced);
  }

  /** Adds group {@code g}'s result at {@code step}, held in {@code cell}, to its output series. */
  private void emit(
      EvalSeries[] outputs,
      List<Labels> groupLabels,
      int g,
      FoldingCells cells,
      int cell,
      int step,
      double[] params) {
    if (outputs[g] == null) {
      outputs[g] =
          new EvalSeries(ev.ctx.memory, groupLabels.get(g), false, Math.min(ev.numSteps, 64));
    }
    outputs[g].dropName |= cells.dropName(cell);
    outputs[g].add(ev.stepTime(step), cells.result(cell, params == null ? 0 : params[step]));
  }

  /** The step a sample of an evaluated series stands at: its timestamp is that step's time. */
  private int stepOf(long timestamp) {
    int step = ev.numSteps == 1 ? 0 : (int) ((timestamp - ev.stepTime(0)) / ev.interval);
    if (ev.stepTime(step) != timestamp) {
      throw new IllegalStateException("sample at " + timestamp + " is not at a step's time");
    }
    return step;
  }

  /** Step by step, the groups' cells cleared and refilled from every series at each step. */
  private void foldStepByStep(
      AggregateOp op,
      List<EvalSeries> input,
      int[] groupOf,
      List<Labels> groupLabels,
      double[] params,
      EvalSeries[] outputs) {
    int groups = groupLabels.size();
    FoldingCells cells = new FoldingCells(op, groups);
    int[] cursors = new int[input.size()];
    for (int step = 0; step < ev.numSteps; step++) {
      ev.ctx.checkDeadline();
      long ts = ev.stepTime(step);
      cells.clear(0, groups);
      for (int si = 0; si < input.size(); si++) {
        EvalSeries series = input.get(si);
        int c = cursors[si];
        if (c >= series.size || series.timestamps[c] != ts) {
          continue;
        }
        cursors[si] = c + 1;
        cells.add(groupOf[si], series.values[c], series.dropName);
      }
      int produced = 0;
      for (int g = 0; g < groups; g++) {
        if (!cells.seen(g)) {
          continue;
        }
        emit(outputs, groupLabels, g, cells, g, step, params);
        produced++;
      }
      ev.ctx.budget.take(produced);
    }
  }

  private void warnInvalidQuantiles(AggregateExpr e, double[] params) {
    boolean nan = false;
    double max = Double.NEGATIVE_INFINITY;
    double min = Double.POSITIVE_INFINITY;
    for (double p : params) {
      if (Double.isNaN(p)) {
        nan = true;
      } else {
        max = Math.max(max, p);
        min = Math.min(min, p);
      }
    }
    String text = "quantile value should be between 0 and 1, got ";
    if (nan) {
      ev.ctx.annotations.warn(text + "NaN", e.param().position());
    }
    if (max > 1) {
      ev.ctx.annotations.warn(text + GoFormat.g(max), e.param().position());
    }
    if (min < 0) {
      ev.ctx.annotations.warn(text + GoFormat.g(min), e.param().position());
    }
  }

  // ---- topk, bottomk, limitk, limit_ratio: keep input series ----

  private List<EvalSeries> selecting(
      AggregateExpr e, List<EvalSeries> input, Set<String> grouping, double[] params) {
    AggregateOp op = e.op();
    checkSelectionParams(e, params);
    if (op != AggregateOp.LIMIT_RATIO && max(params) < 1) {
      return List.of();
    }
    if (op == AggregateOp.LIMIT_RATIO && max(params) == 0 && min(params) == 0) {
      return List.of();
    }
    List<Labels> groupLabels = new ArrayList<>();
    int[] groupOf = assignGroups(input, grouping, e.without(), groupLabels);
    int groups = groupLabels.size();
    // Reused every step: members of each group present at the step, and the chosen ones.
    int[][] members = new int[groups][];
    int[] memberCount = new int[groups];
    int[] groupSize = new int[groups];
    for (int g : groupOf) {
      groupSize[g]++;
    }
    for (int g = 0; g < groups; g++) {
      members[g] = new int[groupSize[g]];
    }
    int[] valueIndex = new int[input.size()];
    EvalSeries[] outputs = new EvalSeries[input.size()];
    List<EvalSeries> instantOut = new ArrayList<>();
    int[] cursors = new int[input.size()];
    for (int step = 0; step < ev.numSteps; step++) {
      ev.ctx.checkDeadline();
      long ts = ev.stepTime(step);
      double param = params[step];
      java.util.Arrays.fill(memberCount, 0);
      for (int si = 0; si < input.size(); si++) {
        EvalSeries series = input.get(si);
        int c = cursors[si];
        if (c < series.size && series.timestamps[c] == ts) {
          cursors[si] = c + 1;
          valueIndex[si] = c;
          int g = groupOf[si];
          members[g][memberCount[g]++] = si;
        }
      }
      int chosenCount = 0;
      for (int g = 0; g < groups; g++) {
        for (int si : choose(op, param, members[g], memberCount[g], input, valueIndex)) {
          chosenCount++;
          EvalSeries series = input.get(si);
          double value = series.values[valueIndex[si]];
          if (ev.isInstant()) {
            EvalSeries one = new EvalSeries(ev.ctx.memory, series.labels, series.dropName, 1);
            one.add(ts, value);
            instantOut.add(one);
            continue;
          }
          if (outputs[si] == null) {
            outputs[si] =
                new EvalSeries(
                    ev.ctx.memory, series.labels, series.dropName, Math.min(ev.numSteps, 64));
          }
          outputs[si].add(ts, value);
        }
      }
      ev.ctx.budget.take(chosenCount);
    }
    if (ev.isInstant()) {
      return instantOut;
    }
    List<EvalSeries> out = new ArrayList<>();
    for (EvalSeries s : outputs) {
      if (s != null) {
        out.add(s);
      }
    }
    return ev.mergeSameLabels(out);
  }

  /** The series a group keeps at one step, best first for topk and bottomk. */
  private static int[] choose(
      AggregateOp op, double param, int[] group, int size, List<EvalSeries> input, int[] at) {
    if (size == 0) {
      return new int[0];
    }
    switch (op) {
      case TOPK, BOTTOMK -> {
        long k = Math.min((long) param, input.size());
        if (k < 1) {
          return new int[0];
        }
        boolean top = op == AggregateOp.TOPK;
        int keep = (int) Math.min(k, size);
        int[] best = new int[keep];
        int kept = 0;
        // Insertion into a short sorted list: k is small on dashboards, groups are not.
        for (int i = 0; i < size; i++) {
          int si = group[i];
          double v = input.get(si).values[at[si]];
          int pos = kept;
          while (pos > 0 && ranksBefore(v, valueOf(best[pos - 1], input, at), top)) {
            pos--;
          }
          if (pos >= keep) {
            continue;
          }
          int last = Math.min(kept, keep - 1);
          System.arraycopy(best, pos, best, pos + 1, last - pos);
          best[pos] = si;
          kept = Math.min(kept + 1, keep);
        }
        return best;
      }
      case LIMITK -> {
        long k = Math.min((long) param, input.size());
        if (k < 1) {
          return new int[0];
        }
        return java.util.Arrays.copyOf(group, (int) Math.min(k, size));
      }
      case LIMIT_RATIO -> {
        double r = Math.max(-1, Math.min(1, param));
        if (r == 0) {
          return new int[0];
        }
        int[] kept = new int[size];
        int n = 0;
        for (int i = 0; i < size; i++) {
          if (RatioSampler.keep(r, input.get(group[i]).labels)) {
            kept[n++] = group[i];
          }
        }
        return java.util.Arrays.copyOf(kept, n);
      }
      default -> throw new IllegalStateException("not a selecting aggregation: " + op);
    }
  }

  private static double valueOf(int si, List<EvalSeries> input, int[] at) {
    return input.get(si).values[at[si]];
  }

  /**
   * Whether {@code v} ranks strictly before {@code other}: larger first for topk, smaller first for
   * bottomk, NaN last for both; equal values keep their input order.
   */
  private static boolean ranksBefore(double v, double other, boolean top) {
    if (Double.isNaN(v)) {
      return false;
    }
    if (Double.isNaN(other)) {
      return true;
    }
    return top ? v > other : v < other;
  }

  private void checkSelectionParams(AggregateExpr e, double[] params) {
    boolean nan = false;
    for (double p : params) {
      nan |= Double.isNaN(p);
    }
    if (e.op() == AggregateOp.LIMIT_RATIO) {
      if (max(params) == 0 && min(params) == 0) {
        return;
      }
      if (nan) {
        throw execution("Ratio value is NaN");
      }
      if (max(params) > 1) {
        ev.ctx.annotations.warn(
            "ratio value should be between -1 and 1, got "
                + GoFormat.g(max(params))
                + ", capping to 1",
            e.param().position());
      }
      if (min(params) < -1) {
        ev.ctx.annotations.warn(
            "ratio value should be between -1 and 1, got "
                + GoFormat.g(min(params))
                + ", capping to -1",
            e.param().position());
      }
      return;
    }
    if (max(params) < 1) {
      return;
    }
    if (nan) {
      throw execution("Parameter value is NaN");
    }
    if (min(params) <= -0x1p63) {
      throw execution("Scalar value " + GoFormat.g(min(params)) + " underflows int64");
    }
    if (max(params) >= 0x1p63) {
      throw execution("Scalar value " + GoFormat.g(max(params)) + " overflows int64");
    }
  }

  private static double max(double[] values) {
    double m = Double.NEGATIVE_INFINITY;
    boolean any = false;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        m = Math.max(m, v);
        any = true;
      }
    }
    return any ? m : Double.NaN;
  }

  private static double min(double[] values) {
    double m = Double.POSITIVE_INFINITY;
    boolean any = false;
    for (double v : values) {
      if (!Double.isNaN(v)) {
        m = Math.min(m, v);
        any = true;
      }
    }
    return any ? m : Double.NaN;
  }

  private static QueryException execution(String message) {
    return new QueryException(QueryException.Kind.EXECUTION, message);
  }

  // ---- count_values ----

  private List<EvalSeries> countValues(AggregateExpr e) {
    Expr param = e.param();
    while (param instanceof ParenExpr p) {
      param = p.expr();
    }
    String valueLabel = ((StringLiteral) param).value();
    if (!LabelNames.isValid(valueLabel)) {
      throw execution("invalid label name " + GoFormat.quote(valueLabel));
    }
    Set<String> grouping = new TreeSet<>(e.grouping());
    if (!e.without()) {
      grouping.add(valueLabel);
    }
    List<EvalSeries> input = ev.eval(e.expr());
    return ev.stepwise(
        List.of(input),
        (v, ts) -> {
          Map<String, Labels> labelsByKey = new LinkedHashMap<>();
          Map<String, Integer> counts = new HashMap<>();
          for (EvalSample s : v.get(0)) {
            Labels metric =
                s.labels().toBuilder().set(valueLabel, GoFormat.formatFloat(s.value())).build();
            String key =
                e.without() || !grouping.isEmpty()
                    ? LabelOps.signature(metric, grouping, !e.without())
                    : "";
            labelsByKey.putIfAbsent(key, groupingLabels(metric, grouping, e.without()));
            counts.merge(key, 1, Integer::sum);
          }
          List<EvalSample> out = new ArrayList<>();
          labelsByKey.forEach(
              (key, labels) -> out.add(new EvalSample(labels, counts.get(key), false)));
          return out;
        });
  }
}
