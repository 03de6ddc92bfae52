package io.flightdeck.tsdb.chunk;

import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import java.util.Arrays;

/** Iterates decoded samples held in arrays. Reusable through {@link #reset}. */
public final class ArrayIterator implements SampleIterator {
  private long[] times = new long[0];
  private double[] values = new double[0];
  private int count;
  private int index = -1;
  private byte[] decompressed = new byte[0];

  /**
   * Decodes a decimal chunk, {@code data[offset, offset + length)}, into this iterator's arrays,
   * exposing its first {@code visible} samples.
   */
  public ArrayIterator resetDecimal(
      byte[] data, int offset, int length, int sampleCount, int visible) {
    if (times.length < sampleCount) {
      times = new long[sampleCount];
      values = new double[sampleCount];
    }
    if (decompressed.length < DecimalChunk.maxRawSize(sampleCount)) {
      decompressed = new byte[DecimalChunk.maxRawSize(sampleCount)];
    }
    DecimalChunk.decode(data, offset, length, sampleCount, times, values, decompressed);
    count = Math.min(visible, sampleCount);
    index = -1;
    return this;
  }

  @Override
  public boolean next() {
    if (index < count) {
      index++;
    }
    return index < count;
  }

  @Override
  public boolean seek(long t) {
    if (index >= count) {
      return false;
    }
    if (index >= 0 && times[index] >= t) {
      return true;
    }
    int found = Arrays.binarySearch(times, Math.max(index, 0), count, t);
    index = found >= 0 ? found : -found - 1;
    return index < count;
  }

  /** One copy of the samples up to {@code maxt}, left positioned on the first one after it. */
  @Override
  public boolean drainTo(SampleBuffer out, long maxt) {
    int end = index;
    while (end < count && times[end] <= maxt) {
      end++;
    }
    out.addAll(times, values, index, end);
    index = end;
    return end < count;
  }

  @Override
  public long timestamp() {
    return times[index];
  }

  @Override
  public double value() {
    return values[index];
  }
}
