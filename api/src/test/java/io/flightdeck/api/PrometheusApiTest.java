package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.promql.engine.QueryException;
import org.junit.jupiter.api.Test;

/** The endpoints end to end on a small in-memory store, with the real engine. */
class PrometheusApiTest {
  private static final long T = 1_700_000_000_000L;

  private final MemoryStorage storage =
      new MemoryStorage()
          .add(
              Labels.of("__name__", "up", "job", "a", "instance", "x"),
              new long[] {T - 30_000, T},
              new double[] {0, 1})
          .add(
              Labels.of("__name__", "up", "job", "b", "instance", "y"),
              new long[] {T},
              new double[] {1})
          .add(
              Labels.of("__name__", "loss", "run", "r1"),
              new long[] {T - 60_000, T},
              new double[] {2.5, 2.25});

  private final PrometheusApi api =
      TestPrometheusApis.over(new Engine(EngineOptions.DEFAULT), storage, T);

  private FakeExchange call(String method, String path, FakeExchange exchange) {
    api.routes().stream()
        .filter(r -> r.method().equals(method) && r.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route " + method + " " + path))
        .handler()
        .handle(exchange);
    return exchange;
  }

  private FakeExchange get(String path, String... params) {
    return call("GET", path, new FakeExchange(params));
  }

  @Test
  void instantQueryAtTheDefaultTime() {
    FakeExchange r = get("/api/v1/query", "query", "up{job=\"a\"}");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.contentType).isEqualTo("application/json");
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":"
                + "{\"__name__\":\"up\",\"instance\":\"x\",\"job\":\"a\"},"
                + "\"value\":[1700000000,\"1\"]}]}}");
  }

  @Test
  void rangeQueryAndItsValidation() {
    FakeExchange r =
        get(
            "/api/v1/query_range",
            "query",
            "loss",
            "start",
            "1699999940",
            "end",
            "1700000000",
            "step",
            "30s");
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"resultType\":\"matrix\",\"result\":[{\"metric\":"
                + "{\"__name__\":\"loss\",\"run\":\"r1\"},\"values\":[[1699999940,\"2.5\"],"
                + "[1699999970,\"2.5\"],[1700000000,\"2.25\"]]}]}}");
    assertThat(
            get("/api/v1/query_range", "query", "up", "start", "2", "end", "1", "step", "1").body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter"
                + " \\\"end\\\": end timestamp must not be before start time\"}");
    assertThat(
            get("/api/v1/query_range", "query", "up", "start", "1", "end", "2", "step", "0").body)
        .contains(
            "invalid parameter \\\"step\\\": zero or negative query resolution step widths are"
                + " not accepted. Try a positive integer");
    FakeExchange tooMany =
        get("/api/v1/query_range", "query", "up", "start", "0", "end", "11001", "step", "1");
    assertThat(tooMany.status).isEqualTo(400);
    assertThat(tooMany.body)
        .contains(
            "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the"
                + " query resolution (?step=XX)");
    assertThat(
            get("/api/v1/query_range", "query", "up", "start", "x", "end", "1", "step", "1").body)
        .contains("invalid parameter \\\"start\\\": cannot parse \\\"x\\\" to a valid timestamp");
  }

  @Test
  void parseErrorsAreBadData() {
    FakeExchange r = get("/api/v1/query", "query", "sum(");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.body)
        .startsWith(
            "{\"status\":\"error\",\"errorType\":\"bad_data\",\"error\":\"invalid parameter"
                + " \\\"query\\\": 1:5: parse error: ");
    assertThat(get("/api/v1/query", "query", "up", "time", "soon").body)
        .contains("invalid parameter \\\"time\\\": invalid time value for 'time'");
  }

  @Test
  void queryExceptionsMapToPrometheusErrorTypes() {
    assertThat(PrometheusApi.errorType(QueryException.Kind.EXECUTION).httpStatus()).isEqualTo(422);
    assertThat(PrometheusApi.errorType(QueryException.Kind.TIMEOUT).wireName())
        .isEqualTo("timeout");
    assertThat(PrometheusApi.errorType(QueryException.Kind.TIMEOUT).httpStatus()).isEqualTo(503);
    assertThat(PrometheusApi.errorType(QueryException.Kind.CANCELED).httpStatus()).isEqualTo(499);
    assertThat(PrometheusApi.errorType(QueryException.Kind.UNAVAILABLE).httpStatus())
        .isEqualTo(503);
    assertThat(PrometheusApi.errorType(QueryException.Kind.BAD_DATA).httpStatus()).isEqualTo(400);
  }

  @Test
  void seriesLabelsAndValues() {
    assertThat(get("/api/v1/series").body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"bad_data\","
                + "\"error\":\"no match[] parameter provided\"}");
    assertThat(
            call(
                    "POST",
                    "/api/v1/series",
                    new FakeExchange("match[]", "up", "match[]", "up{job=\"b\"}"))
                .body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[{\"__name__\":\"up\",\"instance\":\"x\","
                + "\"job\":\"a\"},{\"__name__\":\"up\",\"instance\":\"y\",\"job\":\"b\"}]}");
    assertThat(get("/api/v1/labels").body)
        .isEqualTo("{\"status\":\"success\",\"data\":[\"__name__\",\"instance\",\"job\",\"run\"]}");
    assertThat(get("/api/v1/labels", "match[]", "loss", "limit", "1").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[\"__name__\"],"
                + "\"warnings\":[\"results truncated due to limit\"]}");
    FakeExchange values = new FakeExchange("match[]", "up").pathParam("name", "job");
    assertThat(call("GET", "/api/v1/label/{name}/values", values).body)
        .isEqualTo("{\"status\":\"success\",\"data\":[\"a\",\"b\"]}");
    assertThat(get("/api/v1/series", "match[]", "up{").status).isEqualTo(400);
  }

  @Test
  void metadataFormatAndParse() {
    assertThat(get("/api/v1/metadata").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"loss\":[{\"type\":\"gauge\","
                + "\"help\":\"Training loss.\",\"unit\":\"\"}]}}");
    assertThat(get("/api/v1/metadata", "limit", "x").body).contains("limit must be a number");
    assertThat(get("/api/v1/format_query", "query", "sum(up)by(job)").body)
        .isEqualTo("{\"status\":\"success\",\"data\":\"sum by (job) (up)\"}");
    assertThat(get("/api/v1/parse_query", "query", "1").body)
        .isEqualTo("{\"status\":\"success\",\"data\":{\"type\":\"numberLiteral\",\"val\":\"1\"}}");
    assertThat(get("/api/v1/query_exemplars", "query", "up").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":[],\"warnings\":[\"exemplars are not stored by"
                + " this server: scraped and remote-written exemplars are dropped\"]}");
  }

  @Test
  void statusEndpoints() {
    assertThat(get("/api/v1/status/buildinfo").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"version\":\"1.0\",\"revision\":\"r\","
                + "\"branch\":\"main\",\"buildUser\":\"u\",\"buildDate\":\"d\","
                + "\"goVersion\":\"java21\"}}");
    assertThat(get("/api/v1/status/flags").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"query.timeout\":\"2m\","
                + "\"web.listen-address\":\"127.0.0.1:9595\"}}");
    assertThat(get("/api/v1/status/config").body)
        .isEqualTo("{\"status\":\"success\",\"data\":{\"yaml\":\"global: {}\\n\"}}");
    assertThat(get("/api/v1/status/runtimeinfo").body)
        .contains("\"startTime\":\"1970-01-01T00:00:01Z\",\"CWD\":\"/\"")
        .contains("\"storageRetention\":\"15d\"");
    assertThat(get("/api/v1/status/tsdb", "limit", "2").body)
        .isEqualTo(
            "{\"status\":\"success\",\"data\":{\"headStats\":{\"numSeries\":3,"
                + "\"numLabelPairs\":7,\"chunkCount\":3,\"minTime\":1699999940000,"
                + "\"maxTime\":1700000000000},\"seriesCountByMetricName\":[{\"name\":\"up\","
                + "\"value\":2},{\"name\":\"loss\",\"value\":1}],\"labelValueCountByLabelName\":"
                + "[{\"name\":\"__name__\",\"value\":2},{\"name\":\"instance\",\"value\":2}],"
                + "\"memoryInBytesByLabelName\":[{\"name\":\"__name__\",\"value\":8},"
                + "{\"name\":\"instance\",\"value\":2}],\"seriesCountByLabelValuePair\":"
                + "[{\"name\":\"__name__=up\",\"value\":2},{\"name\":\"__name__=loss\","
                + "\"value\":1}]}}");
    assertThat(get("/api/v1/status/tsdb", "limit", "0").body)
        .contains("limit must be a positive number");
  }
}
