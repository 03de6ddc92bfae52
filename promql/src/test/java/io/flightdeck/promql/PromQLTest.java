package io.flightdeck.promql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.ParseOptions;
import org.junit.jupiter.api.Test;

class PromQLTest {

  @Test
  void parsesToACanonicalTree() {
    var expr = PromQL.parse("sum(rate(http_requests_total{job='api'}[5m])) by (job)");
    assertThat(expr).isInstanceOf(AggregateExpr.class);
    assertThat(expr).hasToString("sum by (job) (rate(http_requests_total{job=\"api\"}[5m]))");
  }

  @Test
  void reportsErrorsAsPrometheusDoes() {
    assertThatThrownBy(() -> PromQL.parse("rate(x)"))
        .isInstanceOf(ParseException.class)
        .hasMessage(
            "1:6: parse error: expected type range vector in call to function \"rate\", got"
                + " instant vector");
  }

  @Test
  void enablesExperimentalFunctionsUnlessAskedNotTo() {
    assertThat(PromQL.parse("sort_by_label(x, \"job\")")).isNotNull();
    assertThatThrownBy(
            () -> PromQL.parse("sort_by_label(x, \"job\")", new ParseOptions(false, false, false)))
        .hasMessage("1:1: parse error: function \"sort_by_label\" is not enabled");
  }
}
