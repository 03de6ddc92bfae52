package io.flightdeck.bench;

/**
 * Produces the values of one series. Models keep state (plateaus, counter totals), so {@link #next}
 * must be called once per scrape, for slices 0, 1, 2, ... in order.
 */
@FunctionalInterface
interface ValueModel {

  /** The series' value at scrape {@code slice}. */
  double next(int slice);

  /**
   * Rounds to a multiple of {@code quantum}. Fractions go through their decimal scale so 0.01 steps
   * yield the short doubles an exporter would print (12.34, not 12.340000000000002).
   */
  static double quantize(double value, double quantum) {
    if (quantum >= 1) {
      return Math.rint(value / quantum) * quantum;
    }
    double scale = Math.rint(1 / quantum);
    return Math.rint(value * scale) / scale;
  }
}
