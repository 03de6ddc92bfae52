package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Queries a hostile or careless user sends, through the real handlers and engine: each ends in
 * Prometheus's status and error type with a message naming the problem, never in a 500 or a hang.
 */
class HostileQueriesApiTest {
  private static final long T = 1_700_000_000_000L;

  /**
   * A series whose label value is 4,000 characters, and a counter sampled every second for a day.
   */
  private final MemoryStorage storage =
      new MemoryStorage()
          .add(
              Labels.of("__name__", "up", "k", "a".repeat(4_000)), new long[] {T}, new double[] {1})
          .add(
              Labels.of("__name__", "loss", "run", "r1"),
              IntStream.range(0, 86_400).mapToLong(i -> T - 86_400_000L + i * 1000L).toArray(),
              IntStream.range(0, 86_400).mapToDouble(i -> i).toArray());

  private final PrometheusApi api = api(new Engine(EngineOptions.DEFAULT));

  private PrometheusApi api(Engine engine) {
    return TestPrometheusApis.over(engine, storage, T);
  }

  private FakeExchange get(String path, String... params) {
    return get(api, path, params);
  }

  private static FakeExchange get(PrometheusApi api, String path, String... params) {
    FakeExchange exchange = new FakeExchange(params);
    api.routes().stream()
        .filter(r -> r.method().equals("GET") && r.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route GET " + path))
        .handler()
        .handle(exchange);
    return exchange;
  }

  private FakeExchange query(String query) {
    return get("/api/v1/query", "query", query, "time", "1700000000");
  }

  @Test
  void deepNestingOfEveryKindIsABadQuery() {
    String[] queries = {
      "(".repeat(1_000) + "1" + ")".repeat(1_000),
      "-".repeat(20_000) + "1",
      "abs(".repeat(998) + "up" + ")".repeat(998),
      "sum(".repeat(998) + "up" + ")".repeat(998),
      "max_over_time(".repeat(600) + "up" + "[1m:])".repeat(600),
      "up" + " + up".repeat(5_000),
    };
    for (String q : queries) {
      FakeExchange r = query(q);
      assertThat(r.status).as(q.substring(0, 12)).isEqualTo(400);
      assertThat(r.body)
          .contains("\"errorType\":\"bad_data\"")
          .contains("parse error: expression nesting depth exceeds the limit of 1000");
    }
    // The series endpoints parse their match[] with the same parser.
    FakeExchange series =
        get("/api/v1/series", "match[]", "abs(".repeat(998) + "up" + ")".repeat(998));
    assertThat(series.status).isEqualTo(400);
  }

  @Test
  void backtrackingBombsOnHugeLabelValuesAnswerAtOnce() {
    FakeExchange r = query("up{k=~\"(.*a){25}b\"}");
    assertThat(r.status).isEqualTo(200);
    assertThat(r.body).contains("\"result\":[]");
    assertThat(query("up{k=~\"(.*a){25}\"}").body).contains("\"k\":\"aaaa");
    FakeExchange series = get("/api/v1/series", "match[]", "{k=~\"(a|aa)+b\"}");
    assertThat(series.status).isEqualTo(200);
    assertThat(series.body).isEqualTo("{\"status\":\"success\",\"data\":[]}");
  }

  @Test
  void invalidRegexesAreBadDataWithGosMessage() {
    FakeExchange r = query("up{k=~\"a(\"}");
    assertThat(r.status).isEqualTo(400);
    assertThat(r.body)
        .contains("\"errorType\":\"bad_data\"")
        .contains("parse error: error parsing regexp: missing closing ): `a(`");
    assertThat(query("up{k=~\"(a)\\\\1\"}").body).contains("invalid escape sequence: `\\\\1`");
  }

  @Test
  void aRangeQueryPastItsTimeoutIsA503Timeout() {
    FakeExchange r =
        get(
            "/api/v1/query_range",
            "query",
            "quantile_over_time(0.5, loss[6h])",
            "start",
            "1699913600",
            "end",
            "1700000000",
            "step",
            "10",
            "timeout",
            "1ms");
    assertThat(r.status).isEqualTo(503);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"timeout\","
                + "\"error\":\"query timed out in expression evaluation\"}");
  }

  @Test
  void aQueryPastItsMemoryLimitIsA422NamingTheLimit() {
    PrometheusApi limited = api(new Engine(EngineOptions.DEFAULT.withMaxMemory(1 << 20, 1 << 30)));
    FakeExchange r =
        get(
            limited,
            "/api/v1/query_range",
            "query",
            "last_over_time(loss[1d])",
            "start",
            "1699913600",
            "end",
            "1700000000",
            "step",
            "10");
    assertThat(r.status).isEqualTo(422);
    assertThat(r.body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"execution\",\"error\":\"query processing"
                + " would use too much memory in query execution: more than 1MiB"
                + " (--query.max-memory)\"}");
  }
}
