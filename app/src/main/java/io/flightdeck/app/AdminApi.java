package io.flightdeck.app;

import io.flightdeck.api.ApiExchange;
import io.flightdeck.api.ApiReplies;
import io.flightdeck.api.ApiRoute;
import io.flightdeck.model.Matcher;
import io.flightdeck.tsdb.Tsdb;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Prometheus's TSDB admin endpoints, {@code snapshot} and {@code delete_series}, by POST or PUT;
 * off unless {@code --web.enable-admin-api}, as in Prometheus.
 */
final class AdminApi {
  private static final String PREFIX = "/api/v1/admin/tsdb/";

  private final Tsdb tsdb;
  private final boolean enabled;

  AdminApi(Tsdb tsdb, boolean enabled) {
    this.tsdb = tsdb;
    this.enabled = enabled;
  }

  List<ApiRoute> routes() {
    List<ApiRoute> routes = new ArrayList<>();
    for (String method : List.of("POST", "PUT")) {
      routes.add(new ApiRoute(method, PREFIX + "snapshot", this::snapshot));
      routes.add(new ApiRoute(method, PREFIX + "delete_series", this::deleteSeries));
    }
    return routes;
  }

  private void snapshot(ApiExchange exchange) {
    if (!enabled) {
      ApiReplies.unavailable(exchange, "admin APIs disabled");
      return;
    }
    String name;
    try {
      name = tsdb.snapshot();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    ApiReplies.success(
        exchange,
        out -> {
          out.writeStartObject();
          out.writeStringField("name", name);
          out.writeEndObject();
        });
  }

  private void deleteSeries(ApiExchange exchange) {
    if (!enabled) {
      ApiReplies.unavailable(exchange, "admin APIs disabled");
      return;
    }
    List<String> selectors = exchange.params("match[]");
    if (selectors.isEmpty()) {
      ApiReplies.badData(exchange, "no match[] parameter provided");
      return;
    }
    long start;
    long end;
    List<List<Matcher>> parsed = new ArrayList<>();
    try {
      start = TimeParam.parse("start", first(exchange, "start"), Long.MIN_VALUE);
      end = TimeParam.parse("end", first(exchange, "end"), Long.MAX_VALUE);
      for (String selector : selectors) {
        parsed.add(SeriesSelector.parse(selector));
      }
    } catch (IllegalArgumentException e) {
      ApiReplies.badData(exchange, e.getMessage());
      return;
    }
    try {
      for (List<Matcher> matchers : parsed) {
        tsdb.delete(start, end, matchers.toArray(new Matcher[0]));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    exchange.respond(204, null, new byte[0]);
  }

  private static String first(ApiExchange exchange, String name) {
    List<String> values = exchange.params(name);
    return values.isEmpty() ? null : values.get(0);
  }
}
