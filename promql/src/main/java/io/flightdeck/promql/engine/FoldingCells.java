package io.flightdeck.promql.engine;

import io.flightdeck.promql.parser.AggregateOp;
import java.util.Arrays;

/**
 * The running state of one folding aggregation ({@code sum}, {@code avg}, {@code count}, {@code
 * min}, {@code max}, {@code group}, {@code stddev}, {@code stdvar}, {@code quantile}) in cells, one
 * per group and step, held in columns: only the columns the operator needs are allocated, and
 * series can be folded one after another, each writing its steps' cells in a row. The arithmetic is
 * Prometheus's: Kahan-Neumaier compensated sums, an incremental mean once a sum overflows,
 * Welford's variance, NaN rules for {@code min}/{@code max}.
 */
final class FoldingCells {
  /** At most what one cell holds in its arrays (flags and four doubles), for memory accounting. */
  static final int BYTES_PER_CELL = 34;

  private final AggregateOp op;
  private final boolean[] seen;
  private final boolean[] dropName;
  private final double[] value;
  private final double[] kahan;
  private final double[] count;
  private final double[] mean;
  private final boolean[] incrementalMean;
  private final double[][] values;
  private final int[] valueCount;

  FoldingCells(AggregateOp op, int cells) {
    this.op = op;
    seen = new boolean[cells];
    dropName = new boolean[cells];
    boolean sums = op == AggregateOp.SUM || op == AggregateOp.AVG;
    boolean variance = op == AggregateOp.STDDEV || op == AggregateOp.STDVAR;
    value =
        sums || variance || op == AggregateOp.MIN || op == AggregateOp.MAX
            ? new double[cells]
            : null;
    kahan = sums ? new double[cells] : null;
    count = op == AggregateOp.AVG || op == AggregateOp.COUNT || variance ? new double[cells] : null;
    mean = op == AggregateOp.AVG || variance ? new double[cells] : null;
    incrementalMean = op == AggregateOp.AVG ? new boolean[cells] : null;
    values = op == AggregateOp.QUANTILE ? new double[cells][] : null;
    valueCount = op == AggregateOp.QUANTILE ? new int[cells] : null;
  }

  boolean seen(int cell) {
    return seen[cell];
  }

  boolean dropName(int cell) {
    return dropName[cell];
  }

  /** Forgets cells [from, to), to fold another step into them. */
  void clear(int from, int to) {
    Arrays.fill(seen, from, to, false);
  }

  void add(int cell, double f, boolean dropsName) {
    if (!seen[cell]) {
      first(cell, f, dropsName);
      return;
    }
    dropName[cell] |= dropsName;
    switch (op) {
      case SUM -> kahanInc(cell, f);
      case AVG -> addToMean(cell, f);
      case GROUP -> {}
      case MAX -> {
        if (value[cell] < f || Double.isNaN(value[cell])) {
          value[cell] = f;
        }
      }
      case MIN -> {
        if (value[cell] > f || Double.isNaN(value[cell])) {
          value[cell] = f;
        }
      }
      case COUNT -> count[cell]++;
      case STDVAR, STDDEV -> {
        count[cell]++;
        double delta = f - mean[cell];
        mean[cell] += delta / count[cell];
        value[cell] += delta * (f - mean[cell]);
      }
      case QUANTILE -> addValue(cell, f);
      default -> throw new IllegalStateException("not a folding aggregation: " + op);
    }
  }

  private void first(int cell, double f, boolean dropsName) {
    seen[cell] = true;
    dropName[cell] = dropsName;
    switch (op) {
      case SUM, MIN, MAX -> {
        value[cell] = f;
        if (kahan != null) {
          kahan[cell] = 0;
        }
      }
      case AVG -> {
        value[cell] = f;
        kahan[cell] = 0;
        count[cell] = 1;
        mean[cell] = f;
        incrementalMean[cell] = false;
      }
      case COUNT -> count[cell] = 1;
      case STDVAR, STDDEV -> {
        value[cell] = Double.isNaN(f) || Double.isInfinite(f) ? Double.NaN : 0;
        count[cell] = 1;
        mean[cell] = f;
      }
      case QUANTILE -> {
        valueCount[cell] = 0;
        addValue(cell, f);
      }
      case GROUP -> {}
      default -> throw new IllegalStateException("not a folding aggregation: " + op);
    }
  }

  private void addToMean(int cell, double f) {
    count[cell]++;
    if (!incrementalMean[cell]) {
      double sum = value[cell] + f;
      if (!Double.isInfinite(sum)) {
        kahanInc(cell, f);
        return;
      }
      incrementalMean[cell] = true;
      mean[cell] = value[cell] / (count[cell] - 1);
      kahan[cell] /= count[cell] - 1;
    }
    double q = (count[cell] - 1) / count[cell];
    double inc = f / count[cell];
    double scaledMean = q * mean[cell];
    kahan[cell] = Kahan.compensate(inc, scaledMean, q * kahan[cell]);
    mean[cell] = scaledMean + inc;
  }

  private void kahanInc(int cell, double f) {
    kahan[cell] = Kahan.compensate(f, value[cell], kahan[cell]);
    value[cell] += f;
  }

  private void addValue(int cell, double f) {
    double[] held = values[cell];
    if (held == null) {
      held = values[cell] = new double[4];
    } else if (valueCount[cell] == held.length) {
      held = values[cell] = Arrays.copyOf(held, held.length * 2);
    }
    held[valueCount[cell]++] = f;
  }

  /** The aggregate of a seen cell; {@code q} is the quantile's parameter at the cell's step. */
  double result(int cell, double q) {
    return switch (op) {
      case SUM -> value[cell] + kahan[cell];
      case AVG ->
          incrementalMean[cell]
              ? mean[cell] + kahan[cell]
              : value[cell] / count[cell] + kahan[cell] / count[cell];
      case COUNT -> count[cell];
      case GROUP -> 1;
      case STDVAR -> value[cell] / count[cell];
      case STDDEV -> Math.sqrt(value[cell] / count[cell]);
      case QUANTILE -> Quantiles.quantile(q, Arrays.copyOf(values[cell], valueCount[cell]));
      default -> value[cell];
    };
  }
}
