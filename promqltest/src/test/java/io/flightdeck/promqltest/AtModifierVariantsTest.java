package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.promql.PromQL;
import java.util.List;
import org.junit.jupiter.api.Test;

class AtModifierVariantsTest {

  private static List<AtModifierVariants.Variant> variants(String query, long timeMs) {
    return AtModifierVariants.of(PromQL.parse(query), timeMs);
  }

  @Test
  void pinsEverySelectorAndRunsAtFiveTimes() {
    List<AtModifierVariants.Variant> variants =
        variants("sum(rate(foo[5m])) / bar offset 1m", 50_000);
    assertThat(variants)
        .extracting(AtModifierVariants.Variant::timeMs)
        .containsExactly(-500_000L, 0L, 10_000L, 50_000L, 500_000L);
    assertThat(variants.getFirst().expr())
        .hasToString("sum(rate(foo[5m] @ 50.000)) / bar @ 50.000 offset 1m");
  }

  @Test
  void atTimeZeroRunsASecondAroundIt() {
    assertThat(variants("foo", 0))
        .extracting(AtModifierVariants.Variant::timeMs)
        .containsExactly(-1000L, 0L, 1000L);
  }

  @Test
  void keepsExistingAtAndLeavesSubqueryInsidesAlone() {
    assertThat(variants("foo @ 10 + max_over_time(bar[5m:1m])", 60_000).getFirst().expr())
        .hasToString("foo @ 10.000 + max_over_time(bar[5m:1m] @ 60.000)");
  }

  @Test
  void timeDependentFunctionsHaveNoVariants() {
    assertThat(variants("time() - foo", 60_000)).isEmpty();
    assertThat(variants("timestamp(foo)", 60_000)).isEmpty();
    assertThat(variants("abs(foo)", 60_000)).hasSize(5);
  }
}
