package io.flightdeck.training;

import java.util.Arrays;
import java.util.List;

/**
 * The level of one quantity over a run's ranks, walked forward through every time at which any rank
 * has a sample: at each, the median over the ranks of their latest value, and of the higher or the
 * lower of their last two (a rank whose last sample is older than {@code maxAgeMs}, or whose two
 * last lie further apart, is left out). The medians of the last two tell a level that half the
 * ranks have shown twice from one sample's blip. Not thread-safe.
 */
final class RankLevels {
  private final List<SeriesReads.Samples> ranks;
  private final long maxAgeMs;
  private final int[] cursor;
  private final double[] scratch;
  private long at = Long.MIN_VALUE;

  RankLevels(List<SeriesReads.Samples> ranks, long maxAgeMs) {
    this.ranks = ranks;
    this.maxAgeMs = maxAgeMs;
    this.cursor = new int[ranks.size()];
    Arrays.fill(cursor, -1);
    this.scratch = new double[ranks.size()];
  }

  /** Every distinct sample time of any rank, ascending. */
  long[] times() {
    int total = 0;
    for (SeriesReads.Samples rank : ranks) {
      total += rank.size();
    }
    long[] all = new long[total];
    int n = 0;
    for (SeriesReads.Samples rank : ranks) {
      System.arraycopy(rank.times(), 0, all, n, rank.size());
      n += rank.size();
    }
    Arrays.sort(all);
    int distinct = 0;
    for (int i = 0; i < all.length; i++) {
      if (i == 0 || all[i] != all[distinct - 1]) {
        all[distinct++] = all[i];
      }
    }
    return Arrays.copyOf(all, distinct);
  }

  /** Moves to {@code t}, which is not before the last time moved to. */
  void advanceTo(long t) {
    if (t < at) {
      throw new IllegalArgumentException("went back from " + at + " to " + t);
    }
    at = t;
    for (int r = 0; r < cursor.length; r++) {
      long[] times = ranks.get(r).times();
      while (cursor[r] + 1 < times.length && times[cursor[r] + 1] <= t) {
        cursor[r]++;
      }
    }
  }

  double medianOfLatest() {
    for (int r = 0; r < cursor.length; r++) {
      scratch[r] = fresh(r) ? ranks.get(r).values()[cursor[r]] : Double.NaN;
    }
    return RobustStats.median(scratch);
  }

  /** The {@code q} quantile over the ranks of the higher of their last two values. */
  double higherOfLastTwo(double q) {
    return ofLastTwo(true, q);
  }

  /** The {@code q} quantile over the ranks of the lower of their last two values. */
  double lowerOfLastTwo(double q) {
    return ofLastTwo(false, q);
  }

  private double ofLastTwo(boolean higher, double q) {
    for (int r = 0; r < cursor.length; r++) {
      scratch[r] = Double.NaN;
      int c = cursor[r];
      if (fresh(r) && c >= 1) {
        SeriesReads.Samples rank = ranks.get(r);
        if (rank.times()[c] - rank.times()[c - 1] <= maxAgeMs) {
          double a = rank.values()[c];
          double b = rank.values()[c - 1];
          scratch[r] = higher ? Math.max(a, b) : Math.min(a, b);
        }
      }
    }
    return RobustStats.quantile(scratch, q);
  }

  private boolean fresh(int r) {
    return cursor[r] >= 0 && at - ranks.get(r).times()[cursor[r]] <= maxAgeMs;
  }
}
