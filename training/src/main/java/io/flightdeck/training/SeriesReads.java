package io.flightdeck.training;

import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.SampleBuffer;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.Series;
import java.util.Arrays;

/**
 * Reads the few samples the catalog needs from a series: its first timestamp, its tail, or a time
 * range. Staleness markers are left out of what is returned. A tail is found by seeking into
 * windows that grow from the end, so a long series is never read whole for its last samples.
 */
final class SeriesReads {
  private static final int GROWTH = 4;

  private SeriesReads() {}

  /** Samples of one series, time ascending, staleness markers left out. */
  record Samples(long[] times, double[] values) {
    static final Samples NONE = new Samples(new long[0], new double[0]);

    int size() {
      return times.length;
    }

    boolean isEmpty() {
      return times.length == 0;
    }

    long lastTime() {
      return times[times.length - 1];
    }

    double lastValue() {
      return values[values.length - 1];
    }

    /** The median gap between consecutive samples; 0 with fewer than two. */
    long medianInterval() {
      if (times.length < 2) {
        return 0;
      }
      long[] gaps = new long[times.length - 1];
      for (int i = 1; i < times.length; i++) {
        gaps[i - 1] = times[i] - times[i - 1];
      }
      Arrays.sort(gaps);
      return gaps[gaps.length / 2];
    }
  }

  /** The first sample's timestamp, or {@link Long#MAX_VALUE} when the series has none. */
  static long firstTime(Series series) {
    SampleIterator it = series.iterator(null);
    while (it.next()) {
      if (!StaleMarker.is(it.value())) {
        return it.timestamp();
      }
    }
    return Long.MAX_VALUE;
  }

  /**
   * When the series' value first changed at or after {@code notBefore}: {time, value} of the last
   * sample before the change (the moment a step counter began to move, and from where), null when
   * it never changed. Reads only up to that change.
   */
  static double[] firstChange(Series series, long notBefore) {
    SampleIterator it = series.iterator(null);
    if (!it.seek(notBefore)) {
      return null;
    }
    long time = Long.MIN_VALUE;
    double value = Double.NaN;
    do {
      double v = it.value();
      if (StaleMarker.is(v) || Double.isNaN(v)) {
        continue;
      }
      if (time != Long.MIN_VALUE && v != value) {
        return new double[] {time, value};
      }
      time = it.timestamp();
      value = v;
    } while (it.next());
    return null;
  }

  /**
   * The samples from {@code end - window} on, widening the window until it holds at least {@code
   * minSamples} samples or reaches back to {@code notBefore}.
   */
  static Samples tail(Series series, long end, long window, int minSamples, long notBefore) {
    long span = Math.max(1, window);
    while (true) {
      long from = Math.max(notBefore, end - span);
      Samples found = range(series, from, end);
      if (found.size() >= minSamples || from <= notBefore) {
        return found;
      }
      span *= GROWTH;
    }
  }

  /** Every sample with {@code start <= t <= end}. */
  static Samples range(Series series, long start, long end) {
    SampleIterator it = series.iterator(null);
    if (!it.seek(start)) {
      return Samples.NONE;
    }
    // One bulk copy per chunk rather than a few interface calls per sample: a run page reads
    // every rank's step counter over a day (64 x 5,760 samples) for its step map.
    SampleBuffer buffer = new SampleBuffer(64);
    it.drainTo(buffer, end);
    buffer.retainValues(v -> !StaleMarker.is(v));
    return new Samples(
        Arrays.copyOf(buffer.timestamps(), buffer.size()),
        Arrays.copyOf(buffer.values(), buffer.size()));
  }
}
