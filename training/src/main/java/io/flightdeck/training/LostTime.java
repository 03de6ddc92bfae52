package io.flightdeck.training;

import io.flightdeck.storage.Series;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The wall time a run has lost so far, measured on its step history: pauses of the step longer than
 * a stall (stalls, and the time away in a restart) beyond the usual step-change interval, and the
 * steps redone after a restart at the current pace. A slow phase or a slow start is not a loss: the
 * step kept moving.
 *
 * <p>One rank's history is read (the earliest step series, then each series that begins after the
 * previous one ended, as when a restarted job's targets get new labels), not every rank's, so the
 * cost grows with the run's length only.
 *
 * @param elapsedMs from the step's first change to now
 * @param lostMs the part of it lost
 * @param fromStep the step it first moved from
 */
record LostTime(long elapsedMs, double lostMs, double fromStep) {
  static final LostTime NONE = new LostTime(0, 0, Double.NaN);

  /**
   * The pace over the productive time since the step first moved (net steps ÷ (elapsed − lost)),
   * null when unknown.
   */
  Double productivePace(double step) {
    double productiveMs = elapsedMs - lostMs;
    if (elapsedMs <= 0 || productiveMs <= 0 || Double.isNaN(fromStep) || step <= fromStep) {
      return null;
    }
    return (step - fromStep) / (productiveMs / 1000);
  }

  /**
   * How much longer the rest of the run takes if its losses go on at the share seen so far: elapsed
   * ÷ (elapsed − lost), 1 without losses, at most {@code cap}.
   */
  double factor(double cap) {
    if (elapsedMs <= 0 || lostMs <= 0) {
      return 1;
    }
    double productive = elapsedMs - lostMs;
    return productive <= elapsedMs / cap ? cap : elapsedMs / productive;
  }

  static LostTime of(
      List<Series> steps,
      long notBefore,
      long now,
      double pace,
      long stallThresholdMs,
      long usualChangeIntervalMs) {
    if (pace <= 0) {
      return NONE;
    }
    List<SeriesReads.Samples> chain = chain(steps, notBefore, now);
    long origin = Long.MIN_VALUE;
    double fromStep = Double.NaN;
    long prevTime = Long.MIN_VALUE;
    double prev = Double.NaN;
    double highest = Double.NEGATIVE_INFINITY;
    long lastChange = Long.MIN_VALUE;
    double lost = 0;
    for (SeriesReads.Samples samples : chain) {
      for (int i = 0; i < samples.size(); i++) {
        long t = samples.times()[i];
        double v = samples.values()[i];
        if (Double.isNaN(prev)) {
          prev = v;
          prevTime = lastChange = t;
          highest = v;
          continue;
        }
        if (v != prev) {
          if (origin == Long.MIN_VALUE) {
            origin = prevTime;
            fromStep = prev;
          } else if (t - lastChange > stallThresholdMs) {
            lost += t - lastChange - usualChangeIntervalMs;
          }
          if (v < prev) {
            lost += (highest - v) / pace * 1000;
          }
          highest = Math.max(highest, v);
          lastChange = t;
        }
        prev = v;
        prevTime = t;
      }
    }
    return origin == Long.MIN_VALUE || now <= origin
        ? NONE
        : new LostTime(now - origin, Math.max(0, lost), fromStep);
  }

  /** The earliest series, then each that begins after the one before it ended. */
  private static List<SeriesReads.Samples> chain(List<Series> steps, long notBefore, long now) {
    List<Series> byStart = new ArrayList<>(steps);
    List<Long> starts = new ArrayList<>();
    for (Series s : byStart) {
      starts.add(SeriesReads.firstTime(s));
    }
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < byStart.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.comparingLong(starts::get));
    List<SeriesReads.Samples> chain = new ArrayList<>();
    long end = Long.MIN_VALUE;
    for (int i : order) {
      if (starts.get(i) <= end) {
        continue;
      }
      SeriesReads.Samples samples =
          SeriesReads.range(byStart.get(i), Math.max(notBefore, starts.get(i)), now);
      if (!samples.isEmpty()) {
        chain.add(samples);
        end = samples.lastTime();
      }
    }
    return chain;
  }
}
