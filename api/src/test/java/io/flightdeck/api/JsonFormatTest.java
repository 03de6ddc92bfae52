package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryStats;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.promql.engine.Sample;
import io.flightdeck.promql.engine.ScalarValue;
import io.flightdeck.promql.engine.StringValue;
import io.flightdeck.promql.engine.VectorValue;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Exact bytes of the bodies, as Prometheus 3 writes them for the same data. */
class JsonFormatTest {
  private static final Labels UP =
      Labels.of("__name__", "up", "job", "prometheus", "instance", "localhost:9090");

  private static String query(QueryValue value, QueryStats stats) {
    return new String(
        ApiJson.success(out -> QueryJson.data(out, value, stats)), StandardCharsets.UTF_8);
  }

  @Test
  void vector() {
    assertThat(
            query(
                new VectorValue(
                    List.of(new Sample(UP, 1435781451781L, 1), new Sample(UP, 1000, 0.5))),
                null))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":["
                + "{\"metric\":{\"__name__\":\"up\",\"instance\":\"localhost:9090\","
                + "\"job\":\"prometheus\"},\"value\":[1435781451.781,\"1\"]},"
                + "{\"metric\":{\"__name__\":\"up\",\"instance\":\"localhost:9090\","
                + "\"job\":\"prometheus\"},\"value\":[1,\"0.5\"]}]}}");
  }

  @Test
  void emptyVector() {
    assertThat(query(new VectorValue(List.of()), null))
        .isEqualTo("{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}}");
  }

  @Test
  void matrixTimestampsKeepThreeDecimalsAndValuesSpecialForms() {
    RangeSeries series =
        new RangeSeries(
            Labels.of("a", "1"),
            new long[] {1435781451780L, 1435781451805L, 1435781452000L, -1500},
            new double[] {Double.NaN, Double.POSITIVE_INFINITY, 1e-9, -0.0});
    RangeSeries empty = new RangeSeries(Labels.EMPTY, new long[0], new double[0]);
    assertThat(query(new MatrixValue(List.of(series, empty)), null))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":["
                + "{\"metric\":{\"a\":\"1\"},\"values\":[[1435781451.780,\"NaN\"],"
                + "[1435781451.805,\"+Inf\"],[1435781452,\"1e-09\"],[-1.500,\"-0\"]]},"
                + "{\"metric\":{}}]}}");
  }

  @Test
  void scalarAndStringUseGoFloatTimestampsAndPlainValues() {
    assertThat(query(new ScalarValue(1435781451780L, 1e21), null))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\","
                + "\"result\":[1435781451.78,\"1000000000000000000000\"]}}");
    assertThat(query(new StringValue(1000, "a<b & \"c\"\n\u0001"), null))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"string\","
                + "\"result\":[1,\"a\\u003cb \\u0026 \\\"c\\\"\\n\\u0001\"]}}");
  }

  @Test
  void statsUsePrometheusKeys() {
    assertThat(query(new ScalarValue(0, 1), new QueryStats(0.25, 0.5, 7, 3)))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"scalar\",\"result\":[0,\"1\"],"
                + "\"stats\":{\"timings\":{\"evalTotalTime\":0.5,\"resultSortTime\":0,"
                + "\"queryPreparationTime\":0,\"innerEvalTime\":0.5,\"execQueueTime\":0.25,"
                + "\"execTotalTime\":0.75},\"samples\":{\"totalQueryableSamples\":7,"
                + "\"peakSamples\":3}}}}");
  }

  @Test
  void warningsAndInfosFollowData() {
    assertThat(
            new String(
                ApiJson.success(out -> out.writeString("x"), List.of("w1"), List.of("i1")),
                StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"status\":\"success\",\"data\":\"x\",\"warnings\":[\"w1\"],\"infos\":[\"i1\"]}");
  }

  @Test
  void errorEnvelope() {
    assertThat(
            new String(
                ApiJson.error(ErrorType.BAD_DATA, "invalid parameter \"query\": x"),
                StandardCharsets.UTF_8))
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"bad_data\","
                + "\"error\":\"invalid parameter \\\"query\\\": x\"}");
  }

  @Test
  void goTimes() {
    assertThat(ApiJson.goTime(Instant.parse("2024-05-01T10:00:00Z")))
        .isEqualTo("2024-05-01T10:00:00Z");
    assertThat(ApiJson.goTime(Instant.parse("2024-05-01T10:00:00.120Z")))
        .isEqualTo("2024-05-01T10:00:00.12Z");
  }

  /** Prometheus escapes HTML characters, so {@code >} appears as a unicode escape. */
  @Test
  void parseQueryTreeHasPrometheusShapeWithSortedKeys() {
    String json =
        new String(
            ApiJson.render(
                out ->
                    AstJson.write(out, PromQL.parse("sum by (job) (rate(up{job=\"a\"}[5m])) > 1"))),
            StandardCharsets.UTF_8);
    assertThat(json)
        .isEqualTo(
            "{\"bool\":false,\"lhs\":{\"expr\":{\"args\":[{\"anchored\":false,\"matchers\":["
                + "{\"name\":\"job\",\"type\":\"=\",\"value\":\"a\"},"
                + "{\"name\":\"__name__\",\"type\":\"=\",\"value\":\"up\"}],\"name\":\"up\","
                + "\"offset\":0,\"range\":300000,\"smoothed\":false,\"startOrEnd\":null,"
                + "\"timestamp\":null,\"type\":\"matrixSelector\"}],\"func\":{\"argTypes\":"
                + "[\"matrix\"],\"name\":\"rate\",\"returnType\":\"vector\",\"variadic\":0},"
                + "\"type\":\"call\"},\"grouping\":[\"job\"],\"op\":\"sum\",\"param\":null,"
                + "\"type\":\"aggregation\",\"without\":false},\"matching\":null,\"op\":\"\\u003e\","
                + "\"rhs\":{\"type\":\"numberLiteral\",\"val\":\"1\"},\"type\":\"binaryExpr\"}");
  }
}
