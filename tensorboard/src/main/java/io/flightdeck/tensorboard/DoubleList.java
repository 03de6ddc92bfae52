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
    return new DoubleList(Arrays.copyOf(values, size));
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

  double getDouble(int index) {
    return values[index];
  }

  /** The compensated sum of {@code DoubleStream.sum}, the same bits as summing the boxed list. */
  double sum() {
    return Arrays.stream(values).sum();
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
