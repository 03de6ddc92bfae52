package io.flightdeck.dashboards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Variables resolved as Grafana resolves them on load: in dependency order, filtered and sorted.
 */
class VariableResolverTest {
  private static final long HOUR = 3_600_000L;

  private final SeriesTable data =
      new SeriesTable()
          .add("up", "job", "api-prod", "instance", "a:1")
          .add("up", "job", "api-prod", "instance", "a:10")
          .add("up", "job", "api-prod", "instance", "a:2")
          .add("up", "job", "db-prod", "instance", "d.1")
          .add("up", "job", "web-dev", "instance", "w:1")
          .add("DCGM_FI_DEV_GPU_TEMP", "gpu", "0", "instance", "a:1")
          .add("DCGM_FI_DEV_GPU_UTIL", "gpu", "1", "instance", "a:1");

  private static Variable query(
      String name, String query, String regex, int sort, boolean multi, boolean all) {
    return new Variable(
        name,
        VariableType.QUERY,
        "",
        "",
        0,
        query,
        regex,
        sort,
        multi,
        all,
        "",
        1,
        List.of(),
        false,
        30,
        "10s");
  }

  private Map<String, VariableResolver.Resolved> resolve(
      List<Variable> variables, Map<String, List<String>> url) {
    return new VariableResolver(data).resolve(variables, url, 0, HOUR, Map.of());
  }

  @Test
  void chainedVariablesResolveInDependencyOrder() {
    // Declared child first: the resolver still runs the parent first.
    Variable instance =
        query("instance", "label_values(up{job=~\"$job-prod\"}, instance)", "", 7, true, true);
    Variable job = query("job", "label_values(up, job)", "/(.*)-prod/", 1, true, true);
    var resolved = resolve(List.of(instance, job), Map.of());

    assertThat(resolved.keySet()).containsExactly("job", "instance");
    assertThat(resolved.get("job").options()).containsExactly("api", "db");
    assertThat(resolved.get("job").selected()).containsExactly(Variable.ALL);
    assertThat(data.queriesAsked).contains("up{job=~\"(api|db)-prod\"}");
    // natural sort: a:2 before a:10
    assertThat(resolved.get("instance").options()).containsExactly("a:1", "a:2", "a:10", "d.1");

    String expr =
        Interpolator.promql(
            "up{job=~\"$job-prod\", instance=~\"$instance\"}", VariableResolver.values(resolved));
    assertThat(expr).isEqualTo("up{job=~\"(api|db)-prod\", instance=~\"(a:1|a:2|a:10|d\\\\.1)\"}");
  }

  @Test
  void theUrlSelectionWinsAndUnknownValuesFallBack() {
    Variable job = query("job", "label_values(up, job)", "", 1, true, true);
    Variable single = query("single", "label_values(up, instance)", "", 2, false, false);
    var resolved =
        resolve(
            List.of(job, single),
            Map.of("job", List.of("db-prod", "gone"), "single", List.of("gone")));
    assertThat(resolved.get("job").selected()).containsExactly("db-prod");
    // Sort 2 is alphabetical descending; a value no longer offered falls back to the first.
    assertThat(resolved.get("single").options().get(0)).isEqualTo("w:1");
    assertThat(resolved.get("single").selected()).containsExactly("w:1");
    assertThat(resolved.get("single").value()).isEqualTo(VariableValue.single("w:1"));
  }

  @Test
  void everyQueryFormIsAnswered() {
    assertThat(
            resolve(List.of(query("n", "label_names(up)", "", 1, false, false)), Map.of())
                .get("n")
                .options())
        .containsExactly("__name__", "instance", "job");
    assertThat(
            resolve(List.of(query("m", "metrics(^DCGM_.*)", "", 1, false, false)), Map.of())
                .get("m")
                .options())
        .containsExactly("DCGM_FI_DEV_GPU_TEMP", "DCGM_FI_DEV_GPU_UTIL");
    assertThat(
            resolve(
                    List.of(
                        query(
                            "r",
                            "query_result(up{job=\"web-dev\"})",
                            "/instance=\"([^\"]+)\"/",
                            0,
                            false,
                            false)),
                    Map.of())
                .get("r")
                .options())
        .containsExactly("w:1");
    assertThat(
            resolve(List.of(query("g", "label_values(gpu)", "", 3, false, false)), Map.of())
                .get("g")
                .options())
        .containsExactly("0", "1");
  }

  @Test
  void customConstantIntervalAndTextboxVariables() {
    Variable custom =
        new Variable(
            "env",
            VariableType.CUSTOM,
            "",
            "",
            0,
            "production : prod, staging : stage,a\\,b",
            "",
            0,
            true,
            true,
            ".*",
            0,
            List.of(),
            false,
            30,
            "10s");
    Variable constant =
        new Variable(
            "team",
            VariableType.CONSTANT,
            "",
            "",
            2,
            "research",
            "",
            0,
            false,
            false,
            "",
            0,
            List.of(),
            false,
            30,
            "10s");
    Variable interval =
        new Variable(
            "step",
            VariableType.INTERVAL,
            "",
            "",
            0,
            "1m,5m,1h",
            "",
            0,
            false,
            false,
            "",
            0,
            List.of(),
            true,
            20,
            "30s");
    Variable text =
        new Variable(
            "q",
            VariableType.TEXTBOX,
            "",
            "",
            0,
            "default",
            "",
            0,
            false,
            false,
            "",
            0,
            List.of(),
            false,
            30,
            "10s");
    var resolved =
        resolve(List.of(custom, constant, interval, text), Map.of("q", List.of("typed")));
    assertThat(resolved.get("env").options()).containsExactly("prod", "stage", "a,b");
    // All with a custom all value is written as that value.
    assertThat(Interpolator.promql("x{env=~\"$env\"}", VariableResolver.values(resolved)))
        .isEqualTo("x{env=~\".*\"}");
    assertThat(resolved.get("team").value()).isEqualTo(VariableValue.single("research"));
    // auto: 1h over 20 is 3m, rounded to Grafana's 2m, above the 30s minimum
    assertThat(resolved.get("step").options()).containsExactly("2m", "1m", "5m", "1h");
    assertThat(resolved.get("step").selected()).containsExactly("2m");
    assertThat(resolved.get("q").value()).isEqualTo(VariableValue.single("typed"));
  }

  @Test
  void aCycleIsRefused() {
    Variable a = query("a", "label_values(up{job=\"$b\"}, instance)", "", 0, false, false);
    Variable b = query("b", "label_values(up{instance=\"$a\"}, job)", "", 0, false, false);
    assertThatThrownBy(() -> resolve(List.of(a, b), Map.of()))
        .isInstanceOf(DashboardFormatException.class)
        .hasMessageContaining("variable cycle: $a → $b → $a");
  }

  @Test
  void sortOrdersFollowGrafana() {
    List<String> values = List.of("b10", "a2", "B1", "a10");
    assertThat(VariableOptions.sort(values, 0)).containsExactly("b10", "a2", "B1", "a10");
    assertThat(VariableOptions.sort(values, 1)).containsExactly("B1", "a10", "a2", "b10");
    assertThat(VariableOptions.sort(values, 2)).containsExactly("b10", "a2", "a10", "B1");
    assertThat(VariableOptions.sort(values, 3)).containsExactly("B1", "a2", "b10", "a10");
    assertThat(VariableOptions.sort(values, 5)).containsExactly("a10", "a2", "B1", "b10");
    assertThat(VariableOptions.sort(values, 7)).containsExactly("a2", "a10", "B1", "b10");
    assertThat(VariableOptions.sort(values, 8)).containsExactly("b10", "B1", "a10", "a2");
  }
}
