package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The ingester's timestamps: wall times in ms rounded down exactly as {@code Math.floor}. */
class FloorToLongTest {
  @Property(tries = 5000)
  void isLongOfMathFloor(@ForAll("wallTimes") double x) {
    assertThat(TensorBoardIngester.floorToLong(x)).isEqualTo((long) Math.floor(x));
  }

  @Provide
  Arbitrary<Double> wallTimes() {
    return Arbitraries.oneOf(
        Arbitraries.doubles(),
        Arbitraries.doubles().between(-1e4, 1e4).ofScale(6),
        Arbitraries.doubles().between(1.6e12, 1.8e12).ofScale(4),
        Arbitraries.of(
            Double.NaN,
            Double.POSITIVE_INFINITY,
            Double.NEGATIVE_INFINITY,
            0.0,
            -0.0,
            -0.5,
            0x1p52 + 0.5,
            -0x1p52 - 0.5,
            0x1p63,
            -0x1p63,
            -0x1p63 - 4096,
            Math.nextDown(-0x1p63),
            Double.MAX_VALUE,
            -Double.MAX_VALUE,
            Double.MIN_VALUE,
            -Double.MIN_VALUE));
  }
}
