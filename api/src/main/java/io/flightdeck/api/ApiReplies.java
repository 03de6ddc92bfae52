package io.flightdeck.api;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;

/**
 * The one envelope and error writer for handlers outside this module (rules, alert delivery,
 * admin): {@code {"status":"success","data":...}} or Prometheus's error object with its {@code
 * errorType} and HTTP status, written as this module's own handlers write them.
 */
public final class ApiReplies {
  /** Writes one JSON value: the answer's {@code data}. */
  @FunctionalInterface
  public interface Data {
    void write(JsonGenerator out) throws IOException;
  }

  private ApiReplies() {}

  public static void success(ApiExchange exchange, Data data) {
    exchange.respond(200, ApiJson.CONTENT_TYPE, ApiJson.success(data::write));
  }

  /** {@code data} already laid out as JSON by a module that writes its own (rules). */
  public static void successRaw(ApiExchange exchange, String dataJson) {
    success(exchange, out -> out.writeRawValue(dataJson));
  }

  /** 400 {@code bad_data}: the request is wrong, as the message says. */
  public static void badData(ApiExchange exchange, String message) {
    error(exchange, ErrorType.BAD_DATA, message);
  }

  /** 503 {@code unavailable}: the endpoint is off or the server cannot answer now. */
  public static void unavailable(ApiExchange exchange, String message) {
    error(exchange, ErrorType.UNAVAILABLE, message);
  }

  private static void error(ApiExchange exchange, ErrorType type, String message) {
    exchange.respond(type.httpStatus(), ApiJson.CONTENT_TYPE, ApiJson.error(type, message));
  }
}
