package io.flightdeck.training;

import java.util.Arrays;

/**
 * Scores one candidate against the target on a {@link CorrelationGrid}: the rank correlation of
 * their first differences in the window, at the lag (up to {@link #MAX_LAG} grid steps either way)
 * where it is strongest, and how far the candidate's window median left its baseline median, in
 * robust deviations of the baseline, squashed to {@code z / (z + 3)}.
 */
final class MoverScore {
  static final int MAX_LAG = 10;
  static final int MIN_PAIRS = 10;
  static final double NOISE = 3;
  static final int MIN_MOVES = 3;

  /** A score, or null when the candidate cannot be compared (flat, too few values). */
  record Result(double score, int sign, int lag, double correlation, double change) {}

  /** The target's differences in the window, as ranks, kept for every candidate. */
  static final class Target {
    final double[] diffs;
    final double[] ranks;
    final int windowFrom;

    Target(double[] values, int windowFrom) {
      this.diffs = moves(differences(values));
      this.ranks = ranks(diffs);
      this.windowFrom = windowFrom;
    }
  }

  private MoverScore() {}

  static Result score(Target target, double[] candidate, int windowFrom) {
    double[] diffs = moves(differences(candidate));
    if (countMoves(diffs, windowFrom) < MIN_MOVES || countMoves(target.diffs, windowFrom) < 1) {
      return null;
    }
    double[] ranks = ranks(diffs);
    int n = diffs.length;
    int maxLag = Math.min(MAX_LAG, (n - windowFrom) / 4);
    double best = 0;
    int bestLag = 0;
    for (int lag = -maxLag; lag <= maxLag; lag++) {
      double r = pearson(target.ranks, ranks, Math.max(windowFrom, lag), n, lag);
      if (Double.isFinite(r) && Math.abs(r) > Math.abs(best) + 1e-12) {
        best = r;
        bestLag = lag;
      }
    }
    if (best == 0) {
      return null;
    }
    double change = change(candidate, windowFrom);
    double score = Math.abs(best) * (0.5 + 0.5 * change);
    return new Result(score, best > 0 ? 1 : -1, bestLag, best, change);
  }

  /**
   * Pearson's r of {@code x[k]} and {@code y[k - lag]} for k in {@code [from, to)}, over the pairs
   * where both are finite; NaN with fewer than {@link #MIN_PAIRS} or when either is constant.
   */
  static double pearson(double[] x, double[] y, int from, int to, int lag) {
    double sx = 0;
    double sy = 0;
    double sxx = 0;
    double syy = 0;
    double sxy = 0;
    int n = 0;
    for (int k = Math.max(from, 0); k < to; k++) {
      int j = k - lag;
      if (j < 0 || j >= y.length) {
        continue;
      }
      double a = x[k];
      double b = y[j];
      if (Double.isNaN(a) || Double.isNaN(b)) {
        continue;
      }
      sx += a;
      sy += b;
      sxx += a * a;
      syy += b * b;
      sxy += a * b;
      n++;
    }
    if (n < MIN_PAIRS) {
      return Double.NaN;
    }
    double cov = sxy - sx * sy / n;
    double vx = sxx - sx * sx / n;
    double vy = syy - sy * sy / n;
    if (vx <= 1e-12 * Math.max(1, sxx) || vy <= 1e-12 * Math.max(1, syy)) {
      return Double.NaN;
    }
    return cov / Math.sqrt(vx * vy);
  }

  /** {@code d[k] = v[k] - v[k-1]}, {@code d[0]} NaN; NaN where either is not finite. */
  static double[] differences(double[] values) {
    double[] d = new double[values.length];
    d[0] = Double.NaN;
    for (int k = 1; k < values.length; k++) {
      double diff = values[k] - values[k - 1];
      d[k] = Double.isFinite(diff) ? diff : Double.NaN;
    }
    return d;
  }

  /** The differences with those within {@link #NOISE} robust deviations set to 0. */
  static double[] moves(double[] diffs) {
    double center = RobustStats.median(diffs);
    double noise =
        NOISE * RobustStats.MAD_TO_SIGMA * RobustStats.mad(diffs, 0, diffs.length, center);
    double[] moves = diffs.clone();
    for (int k = 0; k < moves.length; k++) {
      if (!Double.isNaN(moves[k]) && Math.abs(moves[k] - center) <= noise) {
        moves[k] = 0;
      }
    }
    return moves;
  }

  private static int countMoves(double[] moves, int from) {
    int n = 0;
    for (int k = from; k < moves.length; k++) {
      if (!Double.isNaN(moves[k]) && moves[k] != 0) {
        n++;
      }
    }
    return n;
  }

  /** Average ranks of the finite values (ties share their mean rank); NaN stays NaN. */
  static double[] ranks(double[] values) {
    Integer[] order = new Integer[values.length];
    int n = 0;
    for (int i = 0; i < values.length; i++) {
      if (!Double.isNaN(values[i])) {
        order[n++] = i;
      }
    }
    Integer[] finite = Arrays.copyOf(order, n);
    Arrays.sort(finite, (a, b) -> Double.compare(values[a], values[b]));
    double[] ranks = new double[values.length];
    Arrays.fill(ranks, Double.NaN);
    for (int i = 0; i < n; ) {
      int j = i;
      while (j + 1 < n && values[finite[j + 1]] == values[finite[i]]) {
        j++;
      }
      double rank = (i + j) / 2.0;
      for (int k = i; k <= j; k++) {
        ranks[finite[k]] = rank;
      }
      i = j + 1;
    }
    return ranks;
  }

  /** {@code z / (z + 3)} of the window median's distance from the baseline's, 0 without one. */
  static double change(double[] values, int windowFrom) {
    double[] baseline = RobustStats.sorted(values, 0, windowFrom);
    double[] window = RobustStats.sorted(values, windowFrom, values.length);
    if (baseline.length < 5 || window.length < 5) {
      return 0;
    }
    double before = RobustStats.median(baseline);
    double after = RobustStats.median(window);
    double spread =
        RobustStats.MAD_TO_SIGMA * RobustStats.mad(baseline, 0, baseline.length, before);
    double floor = 1e-9 * Math.max(Math.abs(before), Math.abs(after)) + 1e-300;
    double z = Math.abs(after - before) / Math.max(spread, floor);
    return z / (z + 3);
  }
}
