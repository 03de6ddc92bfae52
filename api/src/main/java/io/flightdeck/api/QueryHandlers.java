package io.flightdeck.api;

import io.flightdeck.model.Clock;
import io.flightdeck.promql.PromQL;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.MatrixValue;
import io.flightdeck.promql.engine.QueryResult;
import io.flightdeck.promql.engine.QueryValue;
import io.flightdeck.promql.engine.VectorValue;
import io.flightdeck.promql.parser.AggregateExpr;
import io.flightdeck.promql.parser.BinaryExpr;
import io.flightdeck.promql.parser.Call;
import io.flightdeck.promql.parser.Expr;
import io.flightdeck.promql.parser.MatrixSelector;
import io.flightdeck.promql.parser.ParenExpr;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.promql.parser.Prettifier;
import io.flightdeck.promql.parser.SubqueryExpr;
import io.flightdeck.promql.parser.UnaryExpr;
import io.flightdeck.promql.parser.VectorSelector;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.ReadCancellation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** {@code query}, {@code query_range}, {@code format_query}, {@code parse_query}, exemplars. */
final class QueryHandlers {
  /** Prometheus's cap on points per series of a range query. */
  private static final long MAX_POINTS = 11_000;

  private static final int MAX_ANNOTATIONS = 10;
  private static final String TRUNCATED = "results truncated due to limit";

  private final Engine engine;
  private final Queryable storage;
  private final Clock clock;

  QueryHandlers(Engine engine, Queryable storage, Clock clock) {
    this.engine = engine;
    this.storage = storage;
    this.clock = clock;
  }

  byte[] query(Params params) {
    int limit = params.limit();
    long time = params.time("time", clock.millis());
    Engine chosen = engineFor(params);
    RequestDeadline deadline = RequestDeadline.start(params, chosen.options().timeout());
    String query = params.get("query");
    QueryResult result;
    try {
      result =
          ReadCancellation.during(
              () -> deadline.check("series selection"),
              () -> chosen.instantQuery(storage, query, time));
    } catch (ParseException e) {
      throw ApiException.invalidParam("query", e.getMessage());
    }
    return respond(params, result, limit, deadline);
  }

  byte[] queryRange(Params params) {
    int limit = params.limit();
    long start = params.requiredTime("start");
    long end = params.requiredTime("end");
    if (end < start) {
      throw ApiException.invalidParam("end", "end timestamp must not be before start time");
    }
    long stepNanos;
    try {
      stepNanos = Params.parseDurationNanos(params.get("step"));
    } catch (IllegalArgumentException e) {
      throw ApiException.invalidParam("step", e.getMessage());
    }
    long stepMs = stepNanos / 1_000_000;
    if (stepNanos <= 0 || stepMs <= 0) {
      throw ApiException.invalidParam(
          "step",
          "zero or negative query resolution step widths are not accepted. Try a positive integer");
    }
    if (Math.floor(((double) end - start) * 1e6 / stepNanos) > MAX_POINTS) {
      throw ApiException.badData(
          "exceeded maximum resolution of 11,000 points per timeseries. Try decreasing the query"
              + " resolution (?step=XX)");
    }
    Engine chosen = engineFor(params);
    RequestDeadline deadline = RequestDeadline.start(params, chosen.options().timeout());
    QueryResult result;
    String query = params.get("query");
    try {
      result =
          ReadCancellation.during(
              () -> deadline.check("series selection"),
              () -> chosen.rangeQuery(storage, query, start, end, stepMs));
    } catch (ParseException e) {
      throw ApiException.invalidParam("query", e.getMessage());
    }
    return respond(params, result, limit, deadline);
  }

  byte[] formatQuery(Params params) {
    String text = Prettifier.prettify(parse(params.get("query")));
    return ApiJson.success(out -> out.writeString(text));
  }

  byte[] parseQuery(Params params) {
    Expr expr = parse(params.get("query"));
    return ApiJson.success(out -> AstJson.write(out, expr));
  }

  /** No exemplars are stored: an empty list, after the checks Prometheus makes. */
  byte[] queryExemplars(Params params) {
    long start = params.time("start", Params.MIN_TIME);
    long end = params.time("end", Params.MAX_TIME);
    if (end < start) {
      throw ApiException.badData("end timestamp must not be before start timestamp");
    }
    Expr expr;
    try {
      expr = PromQL.parse(params.get("query"));
    } catch (ParseException e) {
      throw ApiException.badData(e.getMessage());
    }
    if (!hasSelector(expr)) {
      return null;
    }
    // Exemplars are not stored yet; the answer says so instead of an empty list that reads as
    // "none were recorded". Grafana shows the warning beside the panel.
    return ApiJson.success(
        out -> ApiJson.strings(out, List.of()), List.of(EXEMPLARS_NOT_STORED), List.of());
  }

  static final String EXEMPLARS_NOT_STORED =
      "exemplars are not stored by this server: scraped and remote-written exemplars are dropped";

  private static Expr parse(String query) {
    try {
      return PromQL.parse(query);
    } catch (ParseException e) {
      throw ApiException.invalidParam("query", e.getMessage());
    }
  }

  /**
   * The engine with the request's {@code lookback_delta} and {@code timeout}, where given, whose
   * query is canceled when the request's client goes away.
   */
  private Engine engineFor(Params params) {
    Engine chosen = engine.withCancellation(params::clientGone);
    long timeoutNanos = params.durationNanos("timeout");
    if (timeoutNanos > 0) {
      chosen = chosen.withTimeout(Duration.ofNanos(timeoutNanos));
    }
    String text = params.get("lookback_delta");
    if (text.isEmpty()) {
      return chosen;
    }
    long nanos;
    try {
      nanos = Params.parseDurationNanos(text);
    } catch (IllegalArgumentException e) {
      throw ApiException.badData("error parsing lookback delta duration: " + e.getMessage());
    }
    return nanos > 0 ? chosen.withLookbackDelta(Duration.ofNanos(nanos)) : chosen;
  }

  private static byte[] respond(
      Params params, QueryResult result, int limit, RequestDeadline deadline) {
    QueryValue value = result.value();
    List<String> warnings = capped(result.warnings(), "warning");
    if (limit > 0) {
      QueryValue truncated = truncate(value, limit);
      if (truncated != value) {
        value = truncated;
        warnings = new ArrayList<>(warnings);
        warnings.add(TRUNCATED);
      }
    }
    QueryValue shown = value;
    boolean withStats = !params.get("stats").isEmpty();
    return ApiJson.success(
        out ->
            QueryJson.data(
                out,
                shown,
                withStats ? result.stats() : null,
                () -> deadline.check("writing the result")),
        warnings,
        capped(result.infos(), "info"));
  }

  private static QueryValue truncate(QueryValue value, int limit) {
    if (value instanceof VectorValue v && v.samples().size() > limit) {
      return new VectorValue(v.samples().subList(0, limit));
    }
    if (value instanceof MatrixValue m && m.series().size() > limit) {
      return new MatrixValue(m.series().subList(0, limit));
    }
    return value;
  }

  /** At most ten annotations of a kind, then a count of the rest, as Prometheus reports them. */
  private static List<String> capped(List<String> annotations, String kind) {
    if (annotations.size() <= MAX_ANNOTATIONS) {
      return annotations;
    }
    List<String> shown = new ArrayList<>(annotations.subList(0, MAX_ANNOTATIONS));
    shown.add((annotations.size() - MAX_ANNOTATIONS) + " more " + kind + " annotations omitted");
    return shown;
  }

  private static boolean hasSelector(Expr expr) {
    return switch (expr) {
      case VectorSelector s -> true;
      case MatrixSelector s -> true;
      case AggregateExpr e ->
          hasSelector(e.expr()) || (e.param() != null && hasSelector(e.param()));
      case BinaryExpr e -> hasSelector(e.lhs()) || hasSelector(e.rhs());
      case Call e -> e.args().stream().anyMatch(QueryHandlers::hasSelector);
      case ParenExpr e -> hasSelector(e.expr());
      case SubqueryExpr e -> hasSelector(e.expr());
      case UnaryExpr e -> hasSelector(e.expr());
      default -> false;
    };
  }
}
