package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** A variable's regex on label values: linear where re2j can, stopped where it backtracks. */
class BoundedRegexTest {
  private static final String LONG_A = "a".repeat(5_000);

  @Test
  void aCatastrophicPatternRe2jTakesRunsInLinearTime() {
    BoundedRegex regex = BoundedRegex.filter("(.*a){25}b", "gpu");
    assertThat(regex.linear()).isTrue();
    assertThat(regex.kept(List.of(LONG_A, LONG_A + "b")))
        .extracting(String::length)
        .containsExactly(LONG_A.length() + 1);
    // Without a group a kept value is itself; with one, its first group (Grafana's capture).
    assertThat(
            VariableOptions.applyRegex(
                List.of(LONG_A, "xab", LONG_A + "b"), "/(?:.*a){25}b/", "gpu"))
        .extracting(String::length)
        .containsExactly(LONG_A.length() + 1);
  }

  @Test
  void aBacktrackingPatternIsStoppedAndTheVariableFailsNamingItAndTheLimit() {
    // A lookahead keeps it off re2j; inside, the same exponential backtracking.
    BoundedRegex regex = BoundedRegex.filter("^(?=(.*a){25}b)", "gpu");
    assertThat(regex.linear()).isFalse();
    assertThatThrownBy(() -> VariableOptions.applyRegex(List.of(LONG_A), "^(?=(.*a){25}b)", "gpu"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("variable \"gpu\"")
        .hasMessageContaining("^(?=(.*a){25}b)")
        .hasMessageContaining(BoundedRegex.LIMIT.toMillis() + " ms");
  }

  @Test
  void lookaroundsAndBackreferencesStillWorkOnOrdinaryValues() {
    assertThat(
            VariableOptions.applyRegex(
                List.of("node-1:9100", "node-2:9400", "node-3:9100"),
                "/^(?!node-2)(?<value>[^:]+)/",
                "host"))
        .containsExactly("node-1", "node-3");
    assertThat(VariableOptions.applyRegex(List.of("aa-aa", "ab-ba", "cc-cc"), "^(\\w+)-\\1$", "v"))
        .containsExactly("aa", "cc");
    // \u0041 is JavaScript's escape for A; re2j has none, the JDK reads it the same.
    assertThat(VariableOptions.applyRegex(List.of("GPU-A", "GPU-B"), "\\u0041$", "v"))
        .containsExactly("GPU-A");
  }

  @Test
  void capturesFlagsAndJavaScriptsEndOfInputMeaningOfDollar() {
    assertThat(
            VariableOptions.applyRegex(
                List.of("node-1:9100", "node-1:9400", "node-2:9100"), "/^([^:]+)/", "node"))
        .containsExactly("node-1", "node-2");
    assertThat(
            VariableOptions.applyRegex(
                List.of("GPU-1", "gpu-2", "cpu-3"), "/(?<text>GPU)-(?<value>\\d)/i", "g"))
        .containsExactly("1", "2");
    // In JavaScript, $ without the m flag is the end of the input only, not before a final \n.
    assertThat(VariableOptions.applyRegex(List.of("abc\n", "abc"), "/c$/", "v"))
        .containsExactly("abc");
    assertThat(VariableOptions.applyRegex(List.of("abc\n", "abc"), "/c$/m", "v"))
        .containsExactly("abc\n", "abc");
  }

  @Test
  void anInvalidRegexNamesTheVariable() {
    assertThatThrownBy(() -> BoundedRegex.filter("/(unclosed/", "run"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("variable \"run\": invalid regex /(unclosed/");
  }

  @Test
  void aMetricsQueryRegexIsBoundedToo() {
    assertThat(BoundedRegex.bare("DCGM_.*UTIL", "m").kept(List.of("DCGM_FI_DEV_GPU_UTIL", "up")))
        .containsExactly("DCGM_FI_DEV_GPU_UTIL");
    assertThatThrownBy(() -> BoundedRegex.bare("(?=(.*a){25}b)", "metric").kept(List.of(LONG_A)))
        .hasMessageContaining("variable \"metric\"");
  }
}
