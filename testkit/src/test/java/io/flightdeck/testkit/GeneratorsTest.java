package io.flightdeck.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Generators stay in their ranges, reach their edges, and rebuild the same value from its choices.
 */
class GeneratorsTest {

  @Test
  void integersStayInAnyRangeAndReplayFromTheirChoices() {
    Property.tries(2000)
        .check(
            in -> {
              long a = in.draw("a", Generators.longs());
              long b = in.draw("b", Generators.longs());
              long min = Math.min(a, b);
              long max = Math.max(a, b);
              Choices fresh = Choices.fresh(a ^ b);
              long value = fresh.longBetween(min, max);
              assertThat(value).isBetween(min, max);
              assertThat(Choices.replaying(fresh.recorded()).longBetween(min, max))
                  .isEqualTo(value);
            });
  }

  @Test
  void integerRangesYieldTheirBoundsAndZero() {
    Set<Long> seen = new HashSet<>();
    Property.tries(500).check(in -> seen.add(in.draw("x", Generators.longs(-1000, 1000))));
    assertThat(seen).contains(-1000L, 1000L, 0L, 1L, -1L);
    Set<Long> positive = new HashSet<>();
    Property.tries(500).check(in -> positive.add(in.draw("x", Generators.longs(5, 1L << 40))));
    assertThat(positive).contains(5L, 1L << 40).allMatch(x -> x >= 5 && x <= 1L << 40);
  }

  @Test
  void longsTakeEveryByteLength() {
    Set<Integer> lengths = new HashSet<>();
    Property.tries(2000)
        .check(in -> lengths.add(64 - Long.numberOfLeadingZeros(in.draw("x", Generators.longs()))));
    assertThat(lengths).hasSizeGreaterThan(60);
  }

  @Test
  void listsTakeTheirWholeSizeRangeAndReplayFromTheirChoices() {
    Set<Integer> sizes = new HashSet<>();
    Property.tries(1000)
        .check(
            in -> {
              Choices fresh = Choices.fresh(in.draw("seed", Generators.longs()));
              Gen<List<Integer>> lists = Generators.listOf(Generators.integers(-3, 3), 2, 40);
              List<Integer> list = lists.generate(fresh);
              assertThat(list).hasSizeBetween(2, 40);
              assertThat(lists.generate(Choices.replaying(fresh.recorded()))).isEqualTo(list);
              sizes.add(list.size());
            });
    assertThat(sizes).contains(2, 40, 3, 20);
  }

  @Test
  void stringsKeepTheirLengthsAndMostAreValidUtf16() {
    int[] valid = {0};
    Property.tries(1000)
        .check(
            in -> {
              String s = in.draw("s", Generators.strings(1, 20));
              assertThat(s.length()).isBetween(1, 20);
              if (s.codePoints().noneMatch(cp -> cp >= 0xD800 && cp <= 0xDFFF)) {
                valid[0]++;
              }
            });
    assertThat(valid[0]).isGreaterThan(700);
  }

  @Test
  void validStringsHaveNoLoneSurrogatesAndKeepTheirLengths() {
    Property.tries(1000)
        .check(
            in -> {
              String s = in.draw("s", Generators.validStrings(1, 9));
              assertThat(s.length()).isBetween(1, 9);
              assertThat(
                      new String(
                          s.getBytes(java.nio.charset.StandardCharsets.UTF_8),
                          java.nio.charset.StandardCharsets.UTF_8))
                  .isEqualTo(s);
            });
  }

  @Test
  void doublesAreFiniteAndAnyDoublesAreNot() {
    List<Double> any = new ArrayList<>();
    Property.tries(2000)
        .check(
            in -> {
              assertThat(in.draw("d", Generators.doubles())).isFinite();
              any.add(in.draw("any", Generators.anyDoubles()));
            });
    assertThat(any).anyMatch(d -> d.isNaN()).anyMatch(d -> d.isInfinite());
  }

  @Test
  void decimalsHaveTheirScaleAndRange() {
    Property.tries(1000)
        .check(
            in -> {
              double d = in.draw("d", Generators.decimals(-1e4, 1e4, 6));
              assertThat(d).isBetween(-1e4, 1e4);
              assertThat(new java.math.BigDecimal(Double.toString(d)).stripTrailingZeros().scale())
                  .isLessThanOrEqualTo(6);
            });
  }

  @Test
  void aShuffleIsAPermutation() {
    List<Integer> values = List.of(1, 2, 3, 4, 5, 6);
    Set<List<Integer>> orders = new HashSet<>();
    Property.tries(500)
        .check(
            in -> {
              List<Integer> order = in.draw("order", Generators.shuffle(values));
              assertThat(order).containsExactlyInAnyOrderElementsOf(values);
              orders.add(order);
            });
    assertThat(orders).hasSizeGreaterThan(100);
  }
}
