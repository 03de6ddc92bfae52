package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Prometheus's /api/v1/rules and /api/v1/alerts JSON, field order included. */
class RulesJsonTest {
  private static final long T = 1_700_000_000_000L;
  private static final Alert FIRING =
      new Alert(
          Labels.of("alertname", "High", "severity", "page"),
          Map.of("summary", "s"),
          AlertState.FIRING,
          20,
          T + 500,
          T + 120_000,
          0,
          T + 120_000,
          T + 360_000,
          0);
  private static final RuleSnapshot ALERTING =
      new RuleSnapshot(
          RuleSnapshot.Type.ALERTING,
          "High",
          "x > 10",
          120,
          0,
          Labels.of("severity", "page"),
          Map.of("summary", "s"),
          AlertState.FIRING,
          List.of(FIRING),
          RuleHealth.OK,
          "",
          0.000123,
          T);
  private static final RuleSnapshot RECORDING =
      new RuleSnapshot(
          RuleSnapshot.Type.RECORDING,
          "r",
          "sum(x)",
          0,
          0,
          Labels.EMPTY,
          Map.of(),
          AlertState.INACTIVE,
          List.of(),
          RuleHealth.ERR,
          "boom",
          0,
          0);
  private static final List<GroupSnapshot> GROUPS =
      List.of(
          new GroupSnapshot(
              "g", "a.yml", 60, 0, List.of(ALERTING, RECORDING), 0.5, T, GroupCounters.ZERO),
          new GroupSnapshot("h", "b.yml", 30, 5, List.of(RECORDING), 0, 0, GroupCounters.ZERO));

  private static final String ALERT_JSON =
      "{\"labels\":{\"alertname\":\"High\",\"severity\":\"page\"},\"annotations\":{\"summary\":\"s\"},"
          + "\"state\":\"firing\",\"activeAt\":\"2023-11-14T22:13:20.5Z\",\"value\":\"2e+01\"}";
  private static final String ALERTING_JSON =
      "{\"state\":\"firing\",\"name\":\"High\",\"query\":\"x > 10\",\"duration\":120,"
          + "\"keepFiringFor\":0,\"labels\":{\"severity\":\"page\"},\"annotations\":{\"summary\":\"s\"},"
          + "\"alerts\":["
          + ALERT_JSON
          + "],\"health\":\"ok\",\"evaluationTime\":0.000123,"
          + "\"lastEvaluation\":\"2023-11-14T22:13:20Z\",\"type\":\"alerting\"}";
  private static final String RECORDING_JSON =
      "{\"name\":\"r\",\"query\":\"sum(x)\",\"labels\":{},\"health\":\"err\",\"lastError\":\"boom\","
          + "\"evaluationTime\":0,\"lastEvaluation\":\"0001-01-01T00:00:00Z\",\"type\":\"recording\"}";

  @Test
  void rulesInPrometheusShape() {
    assertThat(RulesJson.rules(GROUPS, RulesFilter.ALL))
        .isEqualTo(
            "{\"groups\":["
                + "{\"name\":\"g\",\"file\":\"a.yml\",\"rules\":["
                + ALERTING_JSON
                + ","
                + RECORDING_JSON
                + "],\"interval\":60,\"limit\":0,\"evaluationTime\":0.5,"
                + "\"lastEvaluation\":\"2023-11-14T22:13:20Z\"},"
                + "{\"name\":\"h\",\"file\":\"b.yml\",\"rules\":["
                + RECORDING_JSON
                + "],\"interval\":30,\"limit\":5,\"evaluationTime\":0,"
                + "\"lastEvaluation\":\"0001-01-01T00:00:00Z\"}]}");
  }

  @Test
  void filtersDropRulesAndThenEmptyGroups() {
    String alertsOnly = RulesJson.rules(GROUPS, filter(Map.of("type", List.of("alert"))));
    assertThat(alertsOnly)
        .isEqualTo(
            "{\"groups\":[{\"name\":\"g\",\"file\":\"a.yml\",\"rules\":["
                + ALERTING_JSON
                + "],\"interval\":60,\"limit\":0,\"evaluationTime\":0.5,"
                + "\"lastEvaluation\":\"2023-11-14T22:13:20Z\"}]}");
    assertThat(
            RulesJson.rules(
                GROUPS, filter(Map.of("type", List.of("record"), "file[]", List.of("b.yml")))))
        .contains("\"name\":\"h\"")
        .doesNotContain("\"name\":\"g\"");
    assertThat(RulesJson.rules(GROUPS, filter(Map.of("group_name[]", List.of("h")))))
        .doesNotContain("\"name\":\"g\"");
    assertThat(RulesJson.rules(GROUPS, filter(Map.of("rule_name[]", List.of("High", "nope")))))
        .contains(ALERTING_JSON)
        .doesNotContain("\"name\":\"r\"");
    assertThat(RulesJson.rules(GROUPS, filter(Map.of("rule_name[]", List.of("nope")))))
        .isEqualTo("{\"groups\":[]}");
    assertThat(RulesJson.rules(GROUPS, filter(Map.of("exclude_alerts", List.of("true")))))
        .contains("\"alerts\":null");
  }

  @Test
  void badFilterValuesUsePrometheusMessages() {
    assertThatThrownBy(() -> filter(Map.of("type", List.of("both"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("invalid parameter \"type\": not supported value \"both\"");
    assertThatThrownBy(() -> filter(Map.of("exclude_alerts", List.of("maybe"))))
        .hasMessage(
            "invalid parameter \"exclude_alerts\": strconv.ParseBool: parsing \"maybe\": invalid syntax");
  }

  @Test
  void alertsListsEveryActiveAlert() {
    assertThat(RulesJson.alerts(GROUPS)).isEqualTo("{\"alerts\":[" + ALERT_JSON + "]}");
    assertThat(RulesJson.alerts(List.of())).isEqualTo("{\"alerts\":[]}");
  }

  private static RulesFilter filter(Map<String, List<String>> params) {
    return RulesFilter.fromParameters(params);
  }
}
