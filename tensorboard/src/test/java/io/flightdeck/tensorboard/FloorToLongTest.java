package io.flightdeck.tensorboard;

import static io.flightdeck.testkit.Generators.decimals;
import static io.flightdeck.testkit.Generators.doubles;
import static io.flightdeck.testkit.Generators.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import org.junit.jupiter.api.Test;

/** The ingester's timestamps: wall times in ms rounded down exactly as {@code Math.floor}. */
class FloorToLongTest {
  @Test
  void isLongOfMathFloor() {
    Property.tries(5000)
        .check(
            in -> {
              double x = in.draw("x", wallTimes());
              assertThat(TensorBoardIngester.floorToLong(x)).isEqualTo((long) Math.floor(x));
            });
  }

  private static Gen<Double> wallTimes() {
    return Generators.oneOf(
        doubles(),
        decimals(-1e4, 1e4, 6),
        decimals(1.6e12, 1.8e12, 4),
        of(
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
