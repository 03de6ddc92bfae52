package io.flightdeck.model;

/**
 * Prometheus's staleness marker: a NaN with one reserved bit pattern, written when a series ends.
 * It must be compared by bits, never with {@code ==} or {@link Double#isNaN}: an ordinary NaN is a
 * real value (a diverged loss, say) and must stay distinguishable from "this series ended".
 */
public final class StaleMarker {
  public static final long BITS = 0x7ff0000000000002L;
  public static final double VALUE = Double.longBitsToDouble(BITS);

  private StaleMarker() {}

  public static boolean is(double value) {
    return Double.doubleToRawLongBits(value) == BITS;
  }
}
