package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

class DoubleListTest {
  @Property(tries = 2000)
  void sumHasTheBitsOfDoubleStreamSum(@ForAll("values") List<Double> values) {
    double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
    double expected = Arrays.stream(array).sum();
    // NaN's sign bit follows the CPU's operand order, not the algorithm: any NaN is NaN.
    assertThat(Double.doubleToLongBits(DoubleList.copyOf(values).sum()))
        .isEqualTo(Double.doubleToLongBits(expected));
  }

  /** Whole numbers, the usual bucket counts, take a shortcut that must give the same bits. */
  @Property(tries = 2000)
  void sumOfWholeNumbersHasTheBitsOfDoubleStreamSum(@ForAll("wholeNumbers") List<Double> values) {
    double[] array = values.stream().mapToDouble(Double::doubleValue).toArray();
    assertThat(Double.doubleToRawLongBits(DoubleList.copyOf(values).sum()))
        .isEqualTo(Double.doubleToRawLongBits(Arrays.stream(array).sum()));
  }

  @Provide
  Arbitrary<List<Double>> wholeNumbers() {
    Arbitrary<Double> value =
        Arbitraries.oneOf(
            Arbitraries.integers().between(0, 100_000).map(Integer::doubleValue),
            Arbitraries.longs().between(-(1L << 54), 1L << 54).map(Long::doubleValue),
            Arbitraries.longs().between((1L << 51) - 100, (1L << 51) + 100).map(Long::doubleValue),
            Arbitraries.of(-0.0, 0.0, 0x1p60, -0x1p60, 0x1p53 + 2));
    return value.list().ofMaxSize(40);
  }

  @Test
  void sumOfSameSignedInfinitiesIsThatInfinity() {
    double inf = Double.POSITIVE_INFINITY;
    assertThat(DoubleList.copyOf(List.of(inf, 1.0, inf)).sum()).isEqualTo(inf);
    assertThat(DoubleList.copyOf(List.of(-inf, -inf)).sum()).isEqualTo(-inf);
    assertThat(DoubleList.copyOf(List.of(inf, -inf)).sum()).isNaN();
    assertThat(DoubleList.copyOf(List.of()).sum()).isEqualTo(0.0);
  }

  @Provide
  Arbitrary<List<Double>> values() {
    Arbitrary<Double> value =
        Arbitraries.oneOf(
            Arbitraries.doubles(),
            Arbitraries.integers().between(0, 100_000).map(Integer::doubleValue),
            Arbitraries.doubles().between(-1e-3, 1e-3).ofScale(12),
            Arbitraries.of(
                Double.NaN,
                Double.POSITIVE_INFINITY,
                Double.NEGATIVE_INFINITY,
                -0.0,
                Double.MAX_VALUE,
                Double.MIN_VALUE,
                1e300,
                -1e300));
    return value.list().ofMaxSize(64);
  }
}
