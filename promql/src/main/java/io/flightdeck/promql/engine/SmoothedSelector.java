package io.flightdeck.promql.engine;

import io.flightdeck.model.StaleMarker;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.List;

/**
 * An instant vector selector with {@code smoothed} (Prometheus's {@code smoothSeries}): per step,
 * the value at the reference time interpolated between the samples around it within one lookback
 * delta on either side, or the newest one before it when none follows yet. Stale markers are left
 * out.
 */
final class SmoothedSelector {
  private final Evaluator ev;

  SmoothedSelector(Evaluator ev) {
    this.ev = ev;
  }

  List<EvalSeries> eval(VectorSelector vs) {
    long lookback = ev.ctx.lookbackMs();
    long firstRef = ev.referenceTime(vs, ev.start);
    long lastRef = ev.referenceTime(vs, ev.stepTime(Math.max(0, ev.numSteps - 1)));
    List<EvalSeries> out = new ArrayList<>();
    SampleIterator it = null;
    SampleBuffer span = new SampleBuffer(256);
    for (Series series : ev.selectSeries(vs)) {
      ev.ctx.checkDeadline();
      it = series.iterator(it);
      span.clear();
      if (it.seek(firstRef - lookback + 1)) {
        it.drainTo(span, lastRef + lookback);
        span.retainValues(value -> !StaleMarker.is(value));
      }
      long[] t = span.timestamps();
      double[] v = span.values();
      int n = span.size();
      EvalSeries result = null;
      // Reference times ascend with the steps (or stay fixed with @), so the cursors only advance.
      int lo = 0;
      int next = 0;
      int hi = 0;
      for (int step = 0; step < ev.numSteps; step++) {
        ev.ctx.checkDeadline();
        long ts = ev.stepTime(step);
        long ref = ev.referenceTime(vs, ts);
        while (lo < n && t[lo] <= ref - lookback) {
          lo++;
        }
        while (hi < n && t[hi] <= ref + lookback) {
          hi++;
        }
        next = Math.max(next, lo);
        while (next < hi && t[next] < ref) {
          next++;
        }
        double value;
        if (next < hi && t[next] == ref) {
          value = v[next];
        } else if (next > lo && next < hi) {
          value =
              ExtendedRangeFunctions.interpolate(
                  t[next - 1], v[next - 1], t[next], v[next], ref, false);
        } else if (next > lo) {
          value = v[next - 1];
        } else {
          continue;
        }
        if (result == null) {
          result = new EvalSeries(ev.ctx.memory, series.labels(), false, ev.numSteps);
        }
        result.add(ts, value);
      }
      if (result != null) {
        // Counted per series, not per point: the budget is shared by SeriesFanOut's workers.
        ev.ctx.budget.take(result.size);
        ev.ctx.budget.countRead(result.size);
        out.add(result);
      }
    }
    return out;
  }
}
