package io.flightdeck.tensorboard;

import java.util.AbstractList;
import java.util.Arrays;
import java.util.List;
import java.util.RandomAccess;

/**
 * An immutable list of doubles kept unboxed, for histogram buckets: {@link #getDouble} reads them
 * without allocating, and equality with another {@code DoubleList} compares the arrays. Equal to
 * any {@code List<Double>} with the same elements, as lists are.
 */
final class DoubleList extends AbstractList<Double> implements RandomAccess {
  private final double[] values;

  private DoubleList(double[] values) {
    this.values = values;
  }

  /** A list of the first {@code size} elements of {@code values}, copied. */
  static DoubleList copyOf(double[] values, int size) {
    return copyOfRange(values, 0, size);
  }

  /** A list of {@code values[from, to)}, copied. */
  static DoubleList copyOfRange(double[] values, int from, int to) {
    return new DoubleList(Arrays.copyOfRange(values, from, to));
  }

  /** Whether this list holds exactly the first {@code size} elements of {@code values}. */
  boolean contentEquals(double[] values, int size) {
    return Arrays.equals(this.values, 0, this.values.length, values, 0, size);
  }

  /** {@code list} itself if it is a {@code DoubleList}, else a copy; null elements are refused. */
  static DoubleList copyOf(List<Double> list) {
    if (list instanceof DoubleList d) {
      return d;
    }
    double[] values = new double[list.size()];
    for (int i = 0; i < values.length; i++) {
      values[i] = list.get(i); // unboxing throws on null, as List.copyOf would
    }
    return new DoubleList(values);
  }

  /** The list's elements themselves, for reading in bulk: never to be changed. */
  double[] array() {
    return values;
  }

  double getDouble(int index) {
    return values[index];
  }

  /**
   * The compensated (Kahan) sum {@code DoubleStream.sum} computes, bit for bit, written as a loop:
   * under C1 the stream's pipeline cost more than the additions, once per histogram point.
   */
  double sum() {
    return sum(values, 0, values.length);
  }

  /** {@link #sum()} of {@code values[from, to)}. */
  static double sum(double[] values, int from, int to) {
    // Bucket counts are whole numbers, whose partial sums are exact while their magnitudes stay
    // below 2^53: the compensation then stays zero, and the plain sum is the compensated one, bit
    // for bit, at a third of its dependent additions.
    double simple = 0;
    double magnitude = 0;
    boolean whole = true;
    for (int i = from; i < to; i++) {
      double v = values[i];
      simple += v;
      magnitude += Math.abs(v);
      whole &= v == (double) (long) v;
    }
    return whole && magnitude < 0x1p52 ? simple : compensatedSum(values, from, to);
  }

  private static double compensatedSum(double[] values, int from, int to) {
    double high = 0;
    double negatedLow = 0;
    double simple = 0;
    for (int i = from; i < to; i++) {
      double v = values[i];
      double corrected = v - negatedLow;
      double next = high + corrected;
      negatedLow = (next - high) - corrected;
      high = next;
      simple += v;
    }
    double compensated = high - negatedLow;
    // Same-signed infinities make the compensation NaN; the plain sum has the right infinity.
    return Double.isNaN(compensated) && Double.isInfinite(simple) ? simple : compensated;
  }

  @Override
  public Double get(int index) {
    return values[index];
  }

  @Override
  public int size() {
    return values.length;
  }

  @Override
  public boolean equals(Object o) {
    if (o == this) {
      return true; // a run's unchanged bucket limits come as one list (CommonEventDecoder)
    }
    if (o instanceof DoubleList other) {
      return Arrays.equals(values, other.values);
    }
    return super.equals(o);
  }

  @Override
  public int hashCode() {
    int hash = 1;
    for (double v : values) {
      hash = 31 * hash + Double.hashCode(v);
    }
    return hash;
  }
}
