package io.flightdeck.api;

/**
 * Prometheus's {@code errorType}s and the HTTP status each answers with: Prometheus's own codes
 * (499 for a canceled query, as nginx names a client that went away), except {@code unavailable},
 * which answers 503 like Prometheus's readiness check so clients retry.
 */
enum ErrorType {
  BAD_DATA("bad_data", 400),
  EXECUTION("execution", 422),
  TIMEOUT("timeout", 503),
  CANCELED("canceled", 499),
  INTERNAL("internal", 500),
  NOT_FOUND("not_found", 404),
  UNAVAILABLE("unavailable", 503);

  private final String wireName;
  private final int httpStatus;

  ErrorType(String wireName, int httpStatus) {
    this.wireName = wireName;
    this.httpStatus = httpStatus;
  }

  String wireName() {
    return wireName;
  }

  int httpStatus() {
    return httpStatus;
  }
}
