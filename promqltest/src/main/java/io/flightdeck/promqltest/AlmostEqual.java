package io.flightdeck.promqltest;

import io.flightdeck.model.StaleMarker;

/**
 * Float equality as the reference runner checks results: relative tolerance {@link #EPSILON}, exact
 * for infinities, any NaN equal to any NaN, but the stale marker equal only to itself. Values at or
 * near zero get an absolute tolerance scaled by the smallest normal double, so zero only equals
 * (almost) zero.
 */
final class AlmostEqual {
  static final double EPSILON = 1e-6;

  private AlmostEqual() {}

  static boolean equal(double expected, double actual) {
    boolean staleExpected = StaleMarker.is(expected);
    if (staleExpected || StaleMarker.is(actual)) {
      return staleExpected && StaleMarker.is(actual);
    }
    if (Double.isNaN(expected) && Double.isNaN(actual)) {
      return true;
    }
    if (expected == actual) {
      return true;
    }
    double absSum = Math.abs(expected) + Math.abs(actual);
    double diff = Math.abs(expected - actual);
    if (expected == 0 || actual == 0 || absSum < Double.MIN_NORMAL) {
      return diff < EPSILON * Double.MIN_NORMAL;
    }
    return diff / Math.min(absSum, Double.MAX_VALUE) < EPSILON;
  }
}
