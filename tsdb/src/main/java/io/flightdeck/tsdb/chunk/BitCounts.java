package io.flightdeck.tsdb.chunk;

/**
 * Leading and trailing zero bits of a long, read from the exponent of the long as a double. C1,
 * which the one-shot import runs on, calls {@code Long.numberOfLeadingZeros} and {@code
 * numberOfTrailingZeros} as Java code, a call and a dozen compares and shifts each; the XOR encoder
 * asks for both at every changed value.
 */
final class BitCounts {
  private BitCounts() {}

  /** {@code Long.numberOfTrailingZeros(v)}. */
  static int trailingZeros(long v) {
    // The lowest set bit alone is a power of two, which a double holds exactly (2^63 as -2^63).
    return v == 0 ? 64 : exponent(v & -v);
  }

  /** {@code Long.numberOfLeadingZeros(v)}. */
  static int leadingZeros(long v) {
    if (v <= 0) {
      return v == 0 ? 64 : 0;
    }
    // Converting to a double rounds to nearest, which may carry into the next power of two.
    int high = Math.min(exponent(v), 62);
    return 63 - ((v >>> high) != 0 ? high : high - 1);
  }

  /** The binary exponent of {@code v} converted to a double. */
  private static int exponent(long v) {
    return (int) ((Double.doubleToRawLongBits((double) v) >>> 52) & 0x7FF) - 1023;
  }
}
