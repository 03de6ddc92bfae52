package io.flightdeck.tsdb.chunk;

import static io.flightdeck.testkit.Generators.longs;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Property;
import org.junit.jupiter.api.Test;

/** The exponent-based bit counts agree with the JDK's everywhere. */
class BitCountsTest {
  @Test
  void agreeWithTheJdkOnAnyLong() {
    Property.tries(2000)
        .check(
            in -> {
              long v = in.draw("v", longs());
              assertThat(BitCounts.leadingZeros(v)).isEqualTo(Long.numberOfLeadingZeros(v));
              assertThat(BitCounts.trailingZeros(v)).isEqualTo(Long.numberOfTrailingZeros(v));
            });
  }

  /** Every power of two, and the values just below and above it, where rounding could carry. */
  @Test
  void agreeWithTheJdkAroundEveryPowerOfTwo() {
    for (int k = 0; k < 64; k++) {
      long p = 1L << k;
      for (long v : new long[] {p, p - 1, p + 1, -p, ~p, p | (p - 1), p >>> 1 | p}) {
        assertThat(BitCounts.leadingZeros(v))
            .as("leading zeros of %x", v)
            .isEqualTo(Long.numberOfLeadingZeros(v));
        assertThat(BitCounts.trailingZeros(v))
            .as("trailing zeros of %x", v)
            .isEqualTo(Long.numberOfTrailingZeros(v));
      }
    }
    assertThat(BitCounts.leadingZeros(0)).isEqualTo(64);
    assertThat(BitCounts.trailingZeros(0)).isEqualTo(64);
    assertThat(BitCounts.leadingZeros(Long.MAX_VALUE)).isEqualTo(1);
  }
}
