package io.flightdeck.app;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.api.PrometheusApi;
import io.flightdeck.model.Clock;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.EngineOptions;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.PrintStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code flightdeck query}: one PromQL query, like {@code promtool query}, against a running server
 * over HTTP or directly on a data directory opened read-only. Both go through the same API
 * handlers, so parameters, results and errors are those of {@code /api/v1/query(_range)}.
 */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description =
        "Run a PromQL query against a server or a data directory; an instant query, or a range"
            + " query with --start/--end.")
final class QueryCommand implements Callable<Integer> {

  /** Where the data is: exactly one of the two. */
  static final class Source {
    @Option(
        names = "--server",
        description = "URL of a running server, e.g. http://127.0.0.1:9595.")
    URI server;

    @Option(names = "--storage.tsdb.path", description = "Data directory, opened read-only.")
    Path dataDir;
  }

  enum Output {
    json,
    text
  }

  @ArgGroup(multiplicity = "1")
  Source source;

  @Option(
      names = "--time",
      description = "Evaluation time, Unix seconds or RFC 3339 (default now).")
  String time;

  @Option(names = "--start", description = "Start of a range query, Unix seconds or RFC 3339.")
  String start;

  @Option(names = "--end", description = "End of a range query (default now).")
  String end;

  @Option(
      names = "--step",
      description =
          "Step of a range query: seconds or a duration such as 15s (default: range/250).")
  String step;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "text",
      description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
  Output output;

  @Parameters(index = "0", description = "The PromQL expression.")
  String expr;

  @Override
  public Integer call() throws Exception {
    boolean range = start != null || end != null || step != null;
    if (range && time != null) {
      throw new IllegalArgumentException(
          "--time is for instant queries; not with --start/--end/--step");
    }
    Map<String, String> params = new LinkedHashMap<>();
    params.put("query", expr);
    if (range) {
      long endMs = end == null ? System.currentTimeMillis() : TimeParam.parse("end", end, 0);
      long startMs = start == null ? endMs - 5 * 60_000 : TimeParam.parse("start", start, 0);
      params.put("start", start == null ? seconds(startMs) : start);
      params.put("end", end == null ? seconds(endMs) : end);
      params.put("step", step == null ? defaultStep(startMs, endMs) : step);
    } else if (time != null) {
      params.put("time", time);
    }
    String path = range ? "/api/v1/query_range" : "/api/v1/query";
    Response response = source.server != null ? remote(path, params) : local(path, params);
    return print(response, System.out, System.err);
  }

  private record Response(int status, String body) {}

  private Response remote(String path, Map<String, String> params) throws Exception {
    StringBuilder form = new StringBuilder();
    params.forEach(
        (name, value) ->
            form.append(form.isEmpty() ? "" : "&")
                .append(name)
                .append('=')
                .append(URLEncoder.encode(value, StandardCharsets.UTF_8)));
    HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> response =
        client.send(
            HttpRequest.newBuilder(source.server.resolve(path))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(form.toString()))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    return new Response(response.statusCode(), response.body());
  }

  /** Runs the API's own handler in-process on the read-only database. */
  private Response local(String path, Map<String, String> params) throws Exception {
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(source.dataDir))) {
      // Only the query routes are used: no head statistics or server status are needed.
      PrometheusApi api =
          new PrometheusApi(
              new Engine(EngineOptions.DEFAULT), tsdb, tsdb, null, null, Clock.system());
      ApiRoute route =
          api.routes().stream()
              .filter(r -> r.method().equals("GET") && r.path().equals(path))
              .findFirst()
              .orElseThrow();
      Response[] response = new Response[1];
      route
          .handler()
          .handle(
              new ApiExchange() {
                @Override
                public String method() {
                  return "GET";
                }

                @Override
                public String pathParam(String name) {
                  return null;
                }

                @Override
                public List<String> params(String name) {
                  String value = params.get(name);
                  return value == null ? List.of() : List.of(value);
                }

                @Override
                public byte[] body() {
                  return new byte[0]; // a GET
                }

                @Override
                public void respond(int status, String contentType, byte[] body) {
                  response[0] = new Response(status, new String(body, StandardCharsets.UTF_8));
                }
              });
      return response[0];
    }
  }

  private int print(Response response, PrintStream out, PrintStream err) throws Exception {
    JsonNode body;
    try {
      // Made here, not in a static field: picocli loads every command's class at start, and a
      // mapper's setup cost every other command about 0.15 s of CPU.
      body = new ObjectMapper().readTree(response.body());
    } catch (Exception e) {
      err.println("flightdeck: HTTP " + response.status() + ": " + response.body().strip());
      return 1;
    }
    if (!"success".equals(body.path("status").asText())) {
      err.println(
          "flightdeck: "
              + body.path("errorType").asText()
              + ": "
              + body.path("error").asText(response.body()));
      return 1;
    }
    for (JsonNode warning : body.path("warnings")) {
      err.println("warning: " + warning.asText());
    }
    if (output == Output.json) {
      out.println(response.body());
    } else {
      out.print(QueryText.format(body.path("data")));
    }
    return 0;
  }

  /** promtool's default resolution: the range over 250, at least a second. */
  private static String defaultStep(long startMs, long endMs) {
    return Long.toString(Math.max((endMs - startMs) / 1000 / 250, 1));
  }

  private static String seconds(long ms) {
    return java.math.BigDecimal.valueOf(ms, 3).toPlainString();
  }
}
