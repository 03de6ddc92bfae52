package io.flightdeck.promql.engine;

import java.util.Arrays;
import java.util.Map;

/**
 * The functions over range vectors, each a computation over one series' window. They follow
 * Prometheus's arithmetic exactly: extrapolation of {@code rate}/{@code increase}/{@code delta},
 * counter-reset correction, Kahan-compensated sums and means, linear regression for {@code deriv}
 * and {@code predict_linear}.
 */
final class RangeFunctions {
  /** A range function: true with {@link RangeWindow#result} set, or false for no output. */
  interface RangeFunction {
    boolean apply(RangeWindow w);
  }

  static final Map<String, RangeFunction> BY_NAME =
      Map.ofEntries(
          Map.entry("rate", w -> extrapolatedRate(w, true, true)),
          Map.entry("increase", w -> extrapolatedRate(w, true, false)),
          Map.entry("delta", w -> extrapolatedRate(w, false, false)),
          Map.entry("irate", w -> instantValue(w, true)),
          Map.entry("idelta", w -> instantValue(w, false)),
          Map.entry("avg_over_time", RangeFunctions::avg),
          Map.entry("sum_over_time", RangeFunctions::sum),
          Map.entry("count_over_time", w -> w.answer(w.size())),
          Map.entry("min_over_time", w -> compare(w, false, false)),
          Map.entry("max_over_time", w -> compare(w, true, false)),
          Map.entry("ts_of_min_over_time", w -> compare(w, false, true)),
          Map.entry("ts_of_max_over_time", w -> compare(w, true, true)),
          Map.entry("last_over_time", w -> w.answer(w.last())),
          Map.entry("first_over_time", w -> w.answer(w.first())),
          Map.entry("ts_of_last_over_time", w -> w.answer(w.lastT() / 1000.0)),
          Map.entry("ts_of_first_over_time", w -> w.answer(w.firstT() / 1000.0)),
          Map.entry("present_over_time", w -> w.answer(1)),
          Map.entry("stddev_over_time", w -> w.answer(Math.sqrt(variance(w)))),
          Map.entry("stdvar_over_time", w -> w.answer(variance(w))),
          Map.entry("quantile_over_time", RangeFunctions::quantile),
          Map.entry("mad_over_time", RangeFunctions::mad),
          Map.entry("changes", RangeFunctions::changes),
          Map.entry("resets", RangeFunctions::resets),
          Map.entry("deriv", RangeFunctions::deriv),
          Map.entry("predict_linear", RangeFunctions::predictLinear),
          Map.entry("double_exponential_smoothing", RangeFunctions::doubleExponentialSmoothing));

  private RangeFunctions() {}

  private static boolean extrapolatedRate(RangeWindow w, boolean isCounter, boolean isRate) {
    int n = w.size();
    if (n < 2) {
      return false;
    }
    double result = w.last() - w.first();
    if (isCounter && w.hasDrop()) {
      for (int i = w.from + 1; i < w.to; i++) {
        if (w.v[i] < w.v[i - 1]) {
          result += w.v[i - 1];
        }
      }
    }
    double durationToStart = (w.firstT() - w.rangeStart) / 1000.0;
    double durationToEnd = (w.rangeEnd - w.lastT()) / 1000.0;
    double sampledInterval = (w.lastT() - w.firstT()) / 1000.0;
    double averageInterval = sampledInterval / (n - 1);
    double threshold = averageInterval * 1.1;
    if (durationToStart >= threshold) {
      durationToStart = averageInterval / 2;
    }
    if (isCounter) {
      // A counter cannot go below zero: extrapolate no further back than where it would be zero.
      double durationToZero = durationToStart;
      if (result > 0 && w.first() >= 0) {
        durationToZero = sampledInterval * (w.first() / result);
      }
      if (durationToZero < durationToStart) {
        durationToStart = durationToZero;
      }
    }
    if (durationToEnd >= threshold) {
      durationToEnd = averageInterval / 2;
    }
    double factor = 1.0;
    if (sampledInterval != 0) {
      factor = (sampledInterval + durationToStart + durationToEnd) / sampledInterval;
    }
    if (isRate) {
      factor /= w.rangeMs / 1000.0;
    }
    return w.answer(result * factor);
  }

  private static boolean instantValue(RangeWindow w, boolean isRate) {
    if (w.size() < 2) {
      return false;
    }
    double last = w.last();
    double previous = w.v[w.to - 2];
    long interval = w.lastT() - w.t[w.to - 2];
    if (interval == 0) {
      return false;
    }
    double result = last;
    if (!isRate || !(last < previous)) {
      result = last - previous;
    }
    if (isRate) {
      result /= interval / 1000.0;
    }
    return w.answer(result);
  }

  private static boolean avg(RangeWindow w) {
    double sum = w.first();
    double count = 1;
    double mean = 0;
    double c = 0;
    boolean incremental = false;
    for (int i = w.from + 1; i < w.to; i++) {
      double f = w.v[i];
      count = i - w.from + 1;
      if (!incremental) {
        double next = sum + f;
        if (!Double.isInfinite(next)) {
          c = Kahan.compensate(f, sum, c);
          sum = next;
          continue;
        }
        incremental = true;
        mean = sum / (count - 1);
        c /= count - 1;
      }
      double q = (count - 1) / count;
      double inc = f / count;
      double scaled = q * mean;
      c = Kahan.compensate(inc, scaled, q * c);
      mean = scaled + inc;
    }
    return w.answer(incremental ? mean + c : sum / count + c / count);
  }

  private static boolean sum(RangeWindow w) {
    double sum = 0;
    double c = 0;
    for (int i = w.from; i < w.to; i++) {
      c = Kahan.compensate(w.v[i], sum, c);
      sum += w.v[i];
    }
    return w.answer(Double.isInfinite(sum) ? sum : sum + c);
  }

  private static boolean compare(RangeWindow w, boolean max, boolean timestamp) {
    double best = w.first();
    long bestT = w.firstT();
    for (int i = w.from; i < w.to; i++) {
      double f = w.v[i];
      boolean better;
      if (timestamp) {
        better = (max ? f >= best : f <= best) || Double.isNaN(best);
      } else {
        better = (max ? f > best : f < best) || Double.isNaN(best);
      }
      if (better) {
        best = f;
        bestT = w.t[i];
      }
    }
    return w.answer(timestamp ? bestT / 1000.0 : best);
  }

  private static double variance(RangeWindow w) {
    double count = 0;
    double mean = 0;
    double cMean = 0;
    double aux = 0;
    double cAux = 0;
    for (int i = w.from; i < w.to; i++) {
      double f = w.v[i];
      count++;
      double delta = f - (mean + cMean);
      cMean = Kahan.compensate(delta / count, mean, cMean);
      mean += delta / count;
      double spread = delta * (f - (mean + cMean));
      cAux = Kahan.compensate(spread, aux, cAux);
      aux += spread;
    }
    return (aux + cAux) / count;
  }

  private static boolean quantile(RangeWindow w) {
    return w.answer(Quantiles.quantile(w.scalars[0], Arrays.copyOfRange(w.v, w.from, w.to)));
  }

  private static boolean mad(RangeWindow w) {
    double[] values = Arrays.copyOfRange(w.v, w.from, w.to);
    for (double v : values) {
      if (Double.isNaN(v)) {
        return w.answer(Double.NaN);
      }
    }
    double median = Quantiles.quantile(0.5, values);
    for (int i = 0; i < values.length; i++) {
      values[i] = Math.abs(values[i] - median);
    }
    return w.answer(Quantiles.quantile(0.5, values));
  }

  private static boolean changes(RangeWindow w) {
    int changes = 0;
    for (int i = w.from + 1; i < w.to; i++) {
      double cur = w.v[i];
      double prev = w.v[i - 1];
      if (cur != prev && !(Double.isNaN(cur) && Double.isNaN(prev))) {
        changes++;
      }
    }
    return w.answer(changes);
  }

  private static boolean resets(RangeWindow w) {
    int resets = 0;
    for (int i = w.from + 1; i < w.to; i++) {
      if (w.v[i] < w.v[i - 1]) {
        resets++;
      }
    }
    return w.answer(resets);
  }

  private static boolean deriv(RangeWindow w) {
    if (w.size() < 2) {
      return false;
    }
    return w.answer(linearRegression(w, w.firstT())[0]);
  }

  private static boolean predictLinear(RangeWindow w) {
    if (w.size() < 2) {
      return false;
    }
    double[] fit = linearRegression(w, w.stepTime);
    return w.answer(fit[0] * w.scalars[0] + fit[1]);
  }

  /** Least squares over the window: slope per second and intercept at {@code interceptTime}. */
  private static double[] linearRegression(RangeWindow w, long interceptTime) {
    double n = 0;
    double sumX = 0;
    double cX = 0;
    double sumY = 0;
    double cY = 0;
    double sumXY = 0;
    double cXY = 0;
    double sumX2 = 0;
    double cX2 = 0;
    double initY = w.first();
    boolean constY = true;
    for (int i = w.from; i < w.to; i++) {
      double y = w.v[i];
      if (constY && i > w.from && y != initY) {
        constY = false;
      }
      n += 1;
      double x = (w.t[i] - interceptTime) / 1e3;
      cX = Kahan.compensate(x, sumX, cX);
      sumX += x;
      cY = Kahan.compensate(y, sumY, cY);
      sumY += y;
      cXY = Kahan.compensate(x * y, sumXY, cXY);
      sumXY += x * y;
      cX2 = Kahan.compensate(x * x, sumX2, cX2);
      sumX2 += x * x;
    }
    if (constY) {
      if (Double.isInfinite(initY)) {
        return new double[] {Double.NaN, Double.NaN};
      }
      return new double[] {0, initY};
    }
    sumX += cX;
    sumY += cY;
    sumXY += cXY;
    sumX2 += cX2;
    double covXY = sumXY - sumX * sumY / n;
    double varX = sumX2 - sumX * sumX / n;
    double slope = covXY / varX;
    double intercept = sumY / n - slope * sumX / n;
    return new double[] {slope, intercept};
  }

  private static boolean doubleExponentialSmoothing(RangeWindow w) {
    double sf = w.scalars[0];
    double tf = w.scalars[1];
    if (sf <= 0 || sf >= 1) {
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          "invalid smoothing factor. Expected: 0 < sf < 1, got: "
              + String.format(java.util.Locale.ROOT, "%f", sf));
    }
    if (tf <= 0 || tf >= 1) {
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          "invalid trend factor. Expected: 0 < tf < 1, got: "
              + String.format(java.util.Locale.ROOT, "%f", tf));
    }
    int l = w.size();
    if (l < 2) {
      return false;
    }
    double s0 = 0;
    double s1 = w.first();
    double b = w.v[w.from + 1] - w.first();
    for (int i = 1; i < l; i++) {
      double x = sf * w.v[w.from + i];
      b = i - 1 == 0 ? b : tf * (s1 - s0) + (1 - tf) * b;
      double y = (1 - sf) * (s1 + b);
      s0 = s1;
      s1 = x + y;
    }
    return w.answer(s1);
  }
}
