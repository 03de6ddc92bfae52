package io.flightdeck.api;

import java.util.List;

/**
 * {@code /api/v1/targets} and {@code /api/v1/targets/metadata} in Prometheus's JSON shape. Kept
 * apart from {@link PrometheusApi} because only servers that scrape have targets. Thread-safe.
 */
public final class TargetsApi {
  private static final String PREFIX = "/api/v1";

  private final TargetsHandler handler;

  public TargetsApi(TargetsSource source) {
    this.handler = new TargetsHandler(source);
  }

  /** Every endpoint, with its full path; all are GET. */
  public List<ApiRoute> routes() {
    return List.of(
        new ApiRoute(
            "GET",
            PREFIX + "/targets",
            exchange -> PrometheusApi.handle(exchange, handler::targets)),
        new ApiRoute(
            "GET",
            PREFIX + "/targets/metadata",
            exchange -> PrometheusApi.handle(exchange, handler::metadata)));
  }
}
