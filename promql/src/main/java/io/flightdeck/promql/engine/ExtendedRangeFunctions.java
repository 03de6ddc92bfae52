package io.flightdeck.promql.engine;

import io.flightdeck.promql.parser.VectorSelector;
import java.util.Set;

/**
 * Range functions over an {@code anchored} or {@code smoothed} range selector, after Prometheus's
 * {@code extendedRate} and {@code pickFirstSampleIndices}. Their window reaches one lookback delta
 * before the range (and, when smoothed, one after it): anchored takes the newest sample at or
 * before the range start as the value there, smoothed interpolates the values at both range ends.
 */
final class ExtendedRangeFunctions {
  /** Sorted, as Prometheus lists them in its error. */
  private static final Set<String> ANCHORED_SAFE =
      Set.of("changes", "delta", "increase", "rate", "resets");

  private static final Set<String> SMOOTHED_SAFE = Set.of("delta", "increase", "rate");

  private ExtendedRangeFunctions() {}

  /** Fails for a function the modifier on {@code vs} would give wrong answers to. */
  static void checkSupported(String function, VectorSelector vs) {
    String modifier = vs.anchored() ? "anchored" : "smoothed";
    Set<String> safe = vs.anchored() ? ANCHORED_SAFE : SMOOTHED_SAFE;
    if (!safe.contains(function)) {
      throw new QueryException(
          QueryException.Kind.EXECUTION,
          modifier
              + " modifier can only be used with: "
              + String.join(", ", safe.stream().sorted().toList())
              + " - not with "
              + function);
    }
  }

  /** The function for a window extended by the modifier on {@code vs}. */
  static RangeFunctions.RangeFunction of(String function, VectorSelector vs) {
    boolean smoothed = vs.smoothed();
    return switch (function) {
      case "rate" -> w -> rate(w, true, true, smoothed);
      case "increase" -> w -> rate(w, true, false, smoothed);
      case "delta" -> w -> rate(w, false, false, smoothed);
      default -> {
        RangeFunctions.RangeFunction plain = RangeFunctions.BY_NAME.get(function);
        yield w -> fromAnchor(w) && plain.apply(w);
      }
    };
  }

  /**
   * Starts the window at its anchor, the newest sample at or before the range start; false when no
   * sample lies after the range start.
   */
  private static boolean fromAnchor(RangeWindow w) {
    int firstAfter = firstAfter(w, w.from, w.to, w.rangeStart);
    if (firstAfter >= w.to) {
      return false;
    }
    w.from = Math.max(w.from, firstAfter - 1);
    return true;
  }

  /** The first index in {@code [from, to)} whose timestamp is above {@code t}, else {@code to}. */
  private static int firstAfter(RangeWindow w, int from, int to, long t) {
    int i = from;
    while (i < to && w.t[i] <= t) {
      i++;
    }
    return i;
  }

  private static boolean rate(RangeWindow w, boolean isCounter, boolean isRate, boolean smoothed) {
    long rangeStart = w.rangeStart;
    long rangeEnd = w.rangeEnd;
    int last = w.to - 1;
    int first = Math.max(w.from, firstAfter(w, w.from, last, rangeStart) - 1);
    if (smoothed) {
      last = firstAtOrAfter(w, w.from, last, rangeEnd);
    }
    if (w.t[last] <= rangeStart || (smoothed && w.t[first] > rangeEnd)) {
      return false;
    }
    double left =
        smoothed && w.t[first] < rangeStart
            ? interpolate(w, first, first + 1, rangeStart, isCounter)
            : w.v[first];
    double right =
        smoothed && last > w.from && w.t[last] > rangeEnd
            ? interpolate(w, last - 1, last, rangeEnd, isCounter)
            : w.v[last];
    double result = right - left;
    if (isCounter) {
      // The ends are handled by the interpolation; only samples inside the range can reset.
      if (w.t[first] <= rangeStart) {
        first++;
      }
      if (w.t[last] >= rangeEnd) {
        last--;
      }
      double prev = left;
      for (int i = first; i <= last; i++) {
        if (w.v[i] < prev) {
          result += prev;
        }
        prev = w.v[i];
      }
      if (right < prev) {
        result += prev;
      }
    }
    if (isRate) {
      result /= w.rangeMs / 1000.0;
    }
    return w.answer(result);
  }

  private static int firstAtOrAfter(RangeWindow w, int from, int to, long t) {
    int i = from;
    while (i < to && w.t[i] < t) {
      i++;
    }
    return i;
  }

  /**
   * A range selector evaluated on its own ({@code extendFloats}): the samples inside {@code (mint,
   * maxt]} framed by the values at both ends, taken or interpolated as for {@code rate}; null when
   * no sample lies after {@code mint}.
   */
  static EvalSeries frame(EvalSeries raw, long mint, long maxt, boolean smoothed) {
    RangeWindow w = new RangeWindow();
    w.t = raw.timestamps;
    w.v = raw.values;
    int last = raw.size - 1;
    int first = Math.max(0, firstAfter(w, 0, last, mint) - 1);
    if (smoothed) {
      last = firstAtOrAfter(w, 0, last, maxt);
    }
    if (w.t[last] <= mint) {
      return null;
    }
    double left =
        smoothed && w.t[first] < mint ? interpolate(w, first, first + 1, mint, false) : w.v[first];
    double right =
        smoothed && last > 0 && w.t[last] > maxt
            ? interpolate(w, last - 1, last, maxt, false)
            : w.v[last];
    if (w.t[first] <= mint) {
      first++;
    }
    if (w.t[last] >= maxt) {
      last--;
    }
    EvalSeries out = new EvalSeries(raw.labels, raw.dropName, Math.max(0, last - first + 1) + 2);
    out.add(mint, left);
    for (int i = first; i <= last; i++) {
      out.add(w.t[i], w.v[i]);
    }
    out.add(maxt, right);
    return out;
  }

  /** The value at {@code t} on the line between two samples; a counter reset restarts from 0. */
  private static double interpolate(RangeWindow w, int a, int b, long t, boolean isCounter) {
    return interpolate(w.t[a], w.v[a], w.t[b], w.v[b], t, isCounter);
  }

  static double interpolate(long t1, double y1, long t2, double y2, long t, boolean isCounter) {
    double start = isCounter && y2 < y1 ? 0 : y1;
    return start + (y2 - start) * (double) (t - t1) / (double) (t2 - t1);
  }
}
