package io.flightdeck.api;

import io.flightdeck.model.Clock;
import io.flightdeck.promql.engine.Engine;
import io.flightdeck.promql.engine.QueryException;
import io.flightdeck.promql.parser.ParseException;
import io.flightdeck.storage.MetadataSource;
import io.flightdeck.storage.Queryable;
import io.flightdeck.storage.StorageUnavailableException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Prometheus HTTP API v1 under {@code /api/v1}: queries, series and label lookups, metadata and
 * status. Responses match Prometheus 3's JSON byte for byte where the data allow; failures answer
 * with its {@code errorType}s and HTTP statuses. Thread-safe.
 */
public final class PrometheusApi {
  private static final Logger log = LoggerFactory.getLogger(PrometheusApi.class);
  private static final String PREFIX = "/api/v1";

  private final QueryHandlers queries;
  private final SeriesHandlers series;
  private final MetadataHandler metadata;
  private final StatusHandlers status;
  private final TsdbStatusHandler tsdbStatus;

  public PrometheusApi(
      Engine engine,
      Queryable storage,
      MetadataSource metadata,
      HeadStatsSource head,
      ServerStatus status,
      Clock clock) {
    this.queries = new QueryHandlers(engine, storage, clock);
    this.series = new SeriesHandlers(storage, engine.options().timeout());
    this.metadata = new MetadataHandler(metadata);
    this.status = new StatusHandlers(status);
    this.tsdbStatus = new TsdbStatusHandler(head);
  }

  /** Every endpoint, with its full path. */
  public List<ApiRoute> routes() {
    List<ApiRoute> routes = new ArrayList<>();
    getAndPost(routes, "/query", queries::query);
    getAndPost(routes, "/query_range", queries::queryRange);
    getAndPost(routes, "/query_exemplars", queries::queryExemplars);
    getAndPost(routes, "/format_query", queries::formatQuery);
    getAndPost(routes, "/parse_query", queries::parseQuery);
    getAndPost(routes, "/series", series::series);
    getAndPost(routes, "/labels", series::labelNames);
    routes.add(
        new ApiRoute(
            "GET",
            PREFIX + "/label/{name}/values",
            exchange ->
                handle(
                    exchange, params -> series.labelValues(params, exchange.pathParam("name")))));
    get(routes, "/metadata", metadata::metadata);
    get(routes, "/status/buildinfo", params -> status.buildInfo());
    get(routes, "/status/runtimeinfo", params -> status.runtimeInfo());
    get(routes, "/status/flags", params -> status.flags());
    get(routes, "/status/config", params -> status.config());
    get(routes, "/status/tsdb", tsdbStatus::status);
    return List.copyOf(routes);
  }

  private static void getAndPost(
      List<ApiRoute> routes, String path, Function<Params, byte[]> handler) {
    get(routes, path, handler);
    routes.add(new ApiRoute("POST", PREFIX + path, exchange -> handle(exchange, handler)));
  }

  private static void get(List<ApiRoute> routes, String path, Function<Params, byte[]> handler) {
    routes.add(new ApiRoute("GET", PREFIX + path, exchange -> handle(exchange, handler)));
  }

  /** A successful answer's media type and bytes. */
  record Body(String contentType, byte[] bytes) {}

  /** Runs a handler; its JSON body (null for none: 204) or its failure becomes the response. */
  static void handle(ApiExchange exchange, Function<Params, byte[]> handler) {
    handleBody(
        exchange,
        params -> {
          byte[] json = handler.apply(params);
          return json == null ? null : new Body(ApiJson.CONTENT_TYPE, json);
        });
  }

  /**
   * Runs a handler that may answer another media type; its body (null for none: 204) or its
   * failure, as JSON, becomes the response.
   */
  static void handleBody(ApiExchange exchange, Function<Params, Body> handler) {
    Body body;
    try {
      body = handler.apply(new Params(exchange));
    } catch (ApiException e) {
      if (e.type() == ErrorType.CANCELED) {
        log.info("request canceled: {}", e.getMessage());
      }
      fail(exchange, e.type(), e.getMessage());
      return;
    } catch (QueryException e) {
      if (e.kind() == QueryException.Kind.CANCELED) {
        log.info("request canceled: {}", e.getMessage());
      }
      fail(exchange, errorType(e.kind()), e.getMessage());
      return;
    } catch (ParseException e) {
      fail(exchange, ErrorType.BAD_DATA, e.getMessage());
      return;
    } catch (StorageUnavailableException e) {
      fail(exchange, ErrorType.UNAVAILABLE, e.getMessage());
      return;
    } catch (RuntimeException e) {
      log.error("API request failed", e);
      fail(exchange, ErrorType.INTERNAL, String.valueOf(e.getMessage()));
      return;
    }
    if (body == null) {
      exchange.respond(204, null, new byte[0]);
    } else {
      exchange.respond(200, body.contentType(), body.bytes());
    }
  }

  private static void fail(ApiExchange exchange, ErrorType type, String message) {
    exchange.respond(type.httpStatus(), ApiJson.CONTENT_TYPE, ApiJson.error(type, message));
  }

  static ErrorType errorType(QueryException.Kind kind) {
    return switch (kind) {
      case BAD_DATA -> ErrorType.BAD_DATA;
      case EXECUTION -> ErrorType.EXECUTION;
      case TIMEOUT -> ErrorType.TIMEOUT;
      case CANCELED -> ErrorType.CANCELED;
      case UNAVAILABLE -> ErrorType.UNAVAILABLE;
    };
  }
}
