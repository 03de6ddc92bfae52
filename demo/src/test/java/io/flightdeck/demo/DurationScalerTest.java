package io.flightdeck.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.rules.RuleFile;
import io.flightdeck.rules.RuleFileParser;
import io.flightdeck.rules.RulePacks;
import io.flightdeck.rules.RuleSpec;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Compressing the time of rules: expressions through the PromQL tree, and whole packs. */
class DurationScalerTest {
  private final DurationScaler speed30 = new DurationScaler(30);

  @Test
  void dividesRangesOffsetsAndSubqueries() {
    assertThat(speed30.scale("avg_over_time(DCGM_FI_DEV_GPU_UTIL[10m]) < 15"))
        .isEqualTo("avg_over_time(DCGM_FI_DEV_GPU_UTIL[20s]) < 15");
    assertThat(speed30.scale("increase(x[1h] offset 10m) > 18"))
        .isEqualTo("increase(x[2m] offset 20s) > 18");
    assertThat(speed30.scale("max_over_time(rate(x[5m])[1h:1m])"))
        .isEqualTo("max_over_time(rate(x[10s])[2m:2s])");
    assertThat(speed30.scale("x offset 1m")).isEqualTo("x offset 2s");
    assertThat(new DurationScaler(120).scale("increase(x[1m])")).isEqualTo("increase(x[500ms])");
  }

  @Test
  void dividesPredictLinearsHorizonEvenWhenWrittenAsAProduct() {
    assertThat(speed30.scale("predict_linear(m[1h], 7200) > t"))
        .isEqualTo("predict_linear(m[2m], 240) > t");
    assertThat(speed30.scale("predict_linear(m[1h], 4 * 3600) < 0"))
        .isEqualTo("predict_linear(m[2m], 480) < 0");
    assertThatThrownBy(() -> speed30.scale("predict_linear(m[1h], scalar(y))"))
        .hasMessageContaining("predict_linear's horizon must be a number");
  }

  @Test
  void leavesSpeedOneAsIs() {
    String expr = "increase(flightdeck:train_step[10m]) == 0";
    assertThat(new DurationScaler(1).scale(expr)).isEqualTo(expr);
    assertThat(new DurationScaler(1).scale(Duration.ofMinutes(15)))
        .isEqualTo(Duration.ofMinutes(15));
  }

  @Test
  void scaledPacksKeepEveryRuleAndItsTextAndDivideForDurations() {
    for (String pack : RulePacks.FILES) {
      RuleFile shipped = RuleFileParser.parse(pack, RulePacks.text(pack));
      RuleFile scaled = RuleFileParser.parse(pack, ScaledRulePacks.scaledText(pack, 30));
      List<RuleSpec> a = shipped.groups().stream().flatMap(g -> g.rules().stream()).toList();
      List<RuleSpec> b = scaled.groups().stream().flatMap(g -> g.rules().stream()).toList();
      assertThat(b).hasSameSizeAs(a);
      for (int i = 0; i < a.size(); i++) {
        assertThat(b.get(i).name()).isEqualTo(a.get(i).name());
        assertThat(b.get(i).labels()).isEqualTo(a.get(i).labels());
        assertThat(b.get(i).annotations()).isEqualTo(a.get(i).annotations());
        Duration shippedFor =
            a.get(i).forDuration() == null ? Duration.ZERO : a.get(i).forDuration();
        Duration scaledFor =
            b.get(i).forDuration() == null ? Duration.ZERO : b.get(i).forDuration();
        assertThat(scaledFor).isEqualTo(Duration.ofMillis(shippedFor.toMillis() / 30));
      }
    }
    assertThat(ScaledRulePacks.scaledText("gpu.yml", 30))
        .contains("avg_over_time(DCGM_FI_DEV_GPU_UTIL[20s]) < 15")
        .contains("for: \"30s\"");
  }
}
