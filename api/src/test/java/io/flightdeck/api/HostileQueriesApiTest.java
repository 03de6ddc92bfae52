package io.flightdeck.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.RangeSeries;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.ReadCancellation;
import io.flightdeck.storage.SeriesSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
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

  @Test
  void aQueryWhoseClientWentAwayIsCanceledAndTheServerServesOn() {
    FakeExchange gone =
        new FakeExchange(
            "query",
            "max_over_time(quantile_over_time(0.5, loss[1h])[1d:1s])",
            "time",
            "1700000000");
    gone.clientGone = true;
    handle(api, "GET", "/api/v1/query", gone);
    assertThat(gone.status).isEqualTo(499);
    assertThat(gone.body)
        .isEqualTo(
            "{\"status\":\"error\",\"errorType\":\"canceled\","
                + "\"error\":\"query was canceled in expression evaluation\"}");
    assertThat(query("loss").status).isEqualTo(200);
  }

  @Test
  void seriesAndLabelLookupsWhoseClientWentAwayAreCanceled() {
    MemoryStorage many = new MemoryStorage();
    for (int i = 0; i < 2_000; i++) {
      many.add(Labels.of("__name__", "m", "i", "v" + i), new long[] {T}, new double[] {i});
    }
    PrometheusApi lookups = TestPrometheusApis.over(new Engine(EngineOptions.DEFAULT), many, T);
    FakeExchange gone = new FakeExchange("match[]", "m");
    gone.clientGone = true;
    handle(lookups, "GET", "/api/v1/series", gone);
    assertThat(gone.status).isEqualTo(499);
    assertThat(gone.body).contains("\"error\":\"query was canceled in series lookup\"");

    FakeExchange present = new FakeExchange("match[]", "m");
    handle(lookups, "GET", "/api/v1/series", present);
    assertThat(present.status).isEqualTo(200);
    assertThat(present.body).contains("\"i\":\"v1999\"");
  }

  @Test
  void writingALargeResultStopsAtTheRequestsCheck() {
    List<RangeSeries> series = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      series.add(
          new RangeSeries(Labels.of("i", Integer.toString(i)), new long[] {T}, new double[] {i}));
    }
    AtomicInteger checks = new AtomicInteger();
    Runnable check =
        () -> {
          if (checks.incrementAndGet() == 300) {
            throw new ApiException(ErrorType.TIMEOUT, "query timed out in writing the result");
          }
        };
    assertThatThrownBy(
            () -> ApiJson.success(out -> QueryJson.data(out, new MatrixValue(series), null, check)))
        .hasMessage("query timed out in writing the result");
    assertThat(checks).hasValue(300);

    // A request out of time fails there as a timeout, one whose client left as canceled.
    FakeExchange exchange = new FakeExchange();
    RequestDeadline late = RequestDeadline.start(new Params(exchange), Duration.ZERO);
    assertThatThrownBy(() -> late.check("writing the result"))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.type()).isEqualTo(ErrorType.TIMEOUT))
        .hasMessage("query timed out in writing the result");
    exchange.clientGone = true;
    RequestDeadline abandoned = RequestDeadline.start(new Params(exchange), Duration.ofHours(1));
    assertThatThrownBy(() -> abandoned.check("label lookup"))
        .isInstanceOfSatisfying(
            ApiException.class, e -> assertThat(e.type()).isEqualTo(ErrorType.CANCELED))
        .hasMessage("query was canceled in label lookup");
  }

  private static void handle(PrometheusApi api, String method, String path, FakeExchange exchange) {
    api.routes().stream()
        .filter(r -> r.method().equals(method) && r.path().equals(path))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no route " + method + " " + path))
        .handler()
        .handle(exchange);
  }

  @Test
  void theRequestsTimeAndClientReachTheStoragesSelectionLoops() {
    // A store whose selection walks many index entries, calling the request's check as the
    // database's postings and label loops do.
    Queryable walking =
        (mint, maxt) -> {
          Querier inner = storage.querier(mint, maxt);
          return new Querier() {
            @Override
            public SeriesSet select(boolean sorted, Matcher... matchers) {
              for (int turn = 1; turn <= 10_000; turn++) {
                ReadCancellation.checkpoint(turn);
              }
              return inner.select(sorted, matchers);
            }

            @Override
            public List<String> labelNames(Matcher... matchers) {
              return inner.labelNames(matchers);
            }

            @Override
            public List<String> labelValues(String name, Matcher... matchers) {
              return inner.labelValues(name, matchers);
            }

            @Override
            public void close() {
              inner.close();
            }
          };
        };
    PrometheusApi over = TestPrometheusApis.over(new Engine(EngineOptions.DEFAULT), walking, T);
    FakeExchange gone = new FakeExchange("query", "up", "time", "1700000000");
    gone.clientGone = true;
    handle(over, "GET", "/api/v1/query", gone);
    assertThat(gone.status).isEqualTo(499);
    assertThat(gone.body).contains("\"error\":\"query was canceled in series selection\"");

    FakeExchange present = new FakeExchange("query", "up", "time", "1700000000");
    handle(over, "GET", "/api/v1/query", present);
    assertThat(present.status).isEqualTo(200);
  }
}
