package io.flightdeck.promql.engine;

import static io.flightdeck.testkit.Generators.decimals;
import static io.flightdeck.testkit.Generators.frequency;
import static io.flightdeck.testkit.Generators.integers;
import static io.flightdeck.testkit.Generators.of;
import static io.flightdeck.testkit.Generators.oneOf;
import static io.flightdeck.testkit.Generators.weighted;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.Gen;
import io.flightdeck.testkit.Property;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class QuantilesTest {

  /** The definition, by a full sort: NaNs first, then interpolation between neighbouring ranks. */
  private static double bySorting(double q, double[] values) {
    double[] sorted =
        Arrays.stream(values)
            .boxed()
            .sorted(
                (a, b) ->
                    Double.isNaN(a)
                        ? (Double.isNaN(b) ? 0 : -1)
                        : Double.isNaN(b) ? 1 : Double.compare(a, b))
            .mapToDouble(Double::doubleValue)
            .toArray();
    double rank = q * (sorted.length - 1);
    int lower = (int) Math.max(0, Math.floor(rank));
    int upper = (int) Math.min(sorted.length - 1, lower + 1);
    double weight = rank - Math.floor(rank);
    return sorted[lower] * (1 - weight) + sorted[upper] * weight;
  }

  private static Gen<double[]> samples() {
    // Few distinct values make ties common; NaNs and infinities come in now and then.
    Gen<Double> value =
        frequency(
            weighted(8, integers(-20, 20).map(i -> i / 4.0)),
            weighted(4, oneOf(decimals(-1e6, 1e6, 2), decimals(-1e6, 1e6, 9))),
            weighted(1, of(Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY)));
    // -0 and 0 are equal to a selection (and to Go's sort), so which of them comes out is open.
    return value
        .map(v -> v == 0 ? 0.0 : v)
        .list(1, 300)
        .map(l -> l.stream().mapToDouble(Double::doubleValue).toArray());
  }

  @Test
  void selectionGivesWhatSortingGives() {
    Property.tries(2000)
        .check(
            in ->
                selectsAsSorting(
                    in.draw("values", samples()),
                    in.draw("q", oneOf(decimals(0, 1, 2), decimals(0, 1, 15)))));
  }

  private static void selectsAsSorting(double[] values, double q) {
    double expected = bySorting(q, values);
    double actual = Quantiles.quantile(q, values.clone());
    // Boxed, so that NaN equals NaN.
    assertThat(Double.valueOf(actual)).isEqualTo(Double.valueOf(expected));
  }

  @Test
  void theEdgesOfQAreTheExtremesOrTheirNaNs() {
    double[] values = {3, Double.NaN, 1, 2};
    assertThat(Quantiles.quantile(0, values.clone())).isNaN();
    assertThat(Quantiles.quantile(1, values.clone())).isEqualTo(3);
    assertThat(Quantiles.quantile(0.5, new double[] {4, 1, 3, 2})).isEqualTo(2.5);
    assertThat(Quantiles.quantile(-0.1, values.clone())).isEqualTo(Double.NEGATIVE_INFINITY);
    assertThat(Quantiles.quantile(1.1, values.clone())).isEqualTo(Double.POSITIVE_INFINITY);
    assertThat(Quantiles.quantile(Double.NaN, values.clone())).isNaN();
    assertThat(Quantiles.quantile(0.5, new double[0])).isNaN();
  }

  @Test
  void sortedReversedAndConstantRunsAreSelectedToo() {
    for (double[] values :
        List.of(
            java.util.stream.IntStream.range(0, 1000).asDoubleStream().toArray(),
            java.util.stream.IntStream.range(0, 1000).map(i -> 999 - i).asDoubleStream().toArray(),
            new double[500])) {
      for (double q : new double[] {0, 0.01, 0.5, 0.95, 0.999, 1}) {
        assertThat(Quantiles.quantile(q, values.clone())).isEqualTo(bySorting(q, values));
      }
    }
  }
}
