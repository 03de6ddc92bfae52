package io.flightdeck.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.flightdeck.promql.PromQL;
import org.junit.jupiter.api.Test;

class CockpitEvaluationStepTest {
  private static final long DAY_MS = 86_400_000;
  private static final int WIDTH = 1000;

  private static long step(String expr) {
    return CockpitEvaluationStep.of(PromQL.parse(expr), DAY_MS, WIDTH);
  }

  @Test
  void rangeFunctionsWhoseWindowsOverlapAreEvaluatedTwicePerBucket() {
    assertEquals(43_200, step("rate(node_network_receive_bytes_total[2m])"));
    assertEquals(43_200, step("100 * (1 - avg by (instance) (rate(node_cpu_seconds_total[2m])))"));
  }

  @Test
  void anInstantSelectorOrAShortWindowKeepsFourEvaluationsPerBucket() {
    assertEquals(21_600, step("node_memory_MemTotal_bytes - node_memory_MemAvailable_bytes"));
    assertEquals(21_600, step("rate(x[2m]) / y"), "y is read at each step only");
    assertEquals(21_600, step("rate(x[30s])"), "30 s windows leave gaps between 43 s steps");
    assertEquals(21_600, step("max_over_time(rate(x[1m])[10m:])"), "a subquery");
  }

  @Test
  void shortSpansStopAtOneSecond() {
    assertEquals(1000, CockpitEvaluationStep.of(PromQL.parse("rate(x[2m])"), 60_000, WIDTH));
  }
}
