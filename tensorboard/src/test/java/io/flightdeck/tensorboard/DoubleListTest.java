package io.flightdeck.tensorboard;

import static io.flightdeck.testkit.Generators.decimals;
import static io.flightdeck.testkit.Generators.doubles;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.longs;
import static io.flightdeck.testkit.Generators.of;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Generators;
import io.flightdeck.testkit.Property;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class DoubleListTest {
  @Test
  void sumHasTheBitsOfDoubleStreamSum() {
    Property.tries(2000)
        .check(
            in -> {
              List<Double> values = in.draw("values", values());
              double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
              double expected = Arrays.stream(array).sum();
              // NaN's sign bit follows the CPU's operand order, not the algorithm: any NaN is NaN.
              assertThat(Double.doubleToLongBits(DoubleList.copyOf(values).sum()))
                  .isEqualTo(Double.doubleToLongBits(expected));
            });
  }

  /** Whole numbers, the usual bucket counts, take a shortcut that must give the same bits. */
  @Test
  void sumOfWholeNumbersHasTheBitsOfDoubleStreamSum() {
    Property.tries(2000)
        .check(
            in -> {
              List<Double> values = in.draw("values", wholeNumbers());
              double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
              assertThat(Double.doubleToRawLongBits(DoubleList.copyOf(values).sum()))
                  .isEqualTo(Double.doubleToRawLongBits(Arrays.stream(array).sum()));
            });
  }

  private static Gen<List<Double>> wholeNumbers() {
    Gen<Double> value =
        Generators.oneOf(
            integers(0, 100_000).map(Integer::doubleValue),
            longs(-(1L << 54), 1L << 54).map(Long::doubleValue),
            longs((1L << 51) - 100, (1L << 51) + 100).map(Long::doubleValue),
            of(-0.0, 0.0, 0x1p60, -0x1p60, 0x1p53 + 2));
    return value.list(0, 40);
  }

  @Test
  void sumOfSameSignedInfinitiesIsThatInfinity() {
    double inf = Double.POSITIVE_INFINITY;
    assertThat(DoubleList.copyOf(List.of(inf, 1.0, inf)).sum()).isEqualTo(inf);
    assertThat(DoubleList.copyOf(List.of(-inf, -inf)).sum()).isEqualTo(-inf);
    assertThat(DoubleList.copyOf(List.of(inf, -inf)).sum()).isNaN();
    assertThat(DoubleList.copyOf(List.of()).sum()).isEqualTo(0.0);
  }

  private static Gen<List<Double>> values() {
    Gen<Double> value =
        Generators.oneOf(
            doubles(),
            integers(0, 100_000).map(Integer::doubleValue),
            decimals(-1e-3, 1e-3, 12),
            of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                Double.MAX_VALUE,
                Double.MIN_VALUE,
                1e300,
                -1e300));
    return value.list(0, 64);
  }
}
