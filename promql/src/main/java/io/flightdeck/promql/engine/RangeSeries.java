package io.flightdeck.promql.engine;

import io.flightdeck.model.Labels;

/**
 * One series of a matrix: points in increasing time order, {@code timestamps[i]} (ms) with {@code
 * values[i]}. The arrays belong to the series and must not be modified by readers.
 */
public record RangeSeries(Labels labels, long[] timestamps, double[] values) {
  public RangeSeries {
    if (timestamps.length != values.length) {
      throw new IllegalArgumentException(
          "timestamps and values differ in length: " + timestamps.length + " != " + values.length);
    }
  }

  public int size() {
    return timestamps.length;
  }
}
