package io.flightdeck.api;

import java.util.List;

/**
 * One HTTP request and its response, as the API handlers see it; the server at the edge adapts its
 * own request type to this. Used by one thread for one request; {@link #respond} is called once.
 */
public interface ApiExchange {
  /** The request method in upper case: {@code GET}, {@code POST}. */
  String method();

  /** A parameter of the route's path such as {@code name} in {@code /label/{name}/values}. */
  String pathParam(String name);

  /**
   * Every value of a parameter: those of an {@code application/x-www-form-urlencoded} body first,
   * then those of the URL query, the order of Go's {@code Request.Form} that Prometheus reads.
   * Empty when the parameter is absent.
   */
  List<String> params(String name);

  /**
   * The request body as sent, for endpoints that take a JSON document; empty when there is none.
   * Bounded by the server's largest request size.
   */
  byte[] body();

  /**
   * Whether the client has closed its connection while the request is handled: long work for it can
   * stop. Cheap enough to ask often; false where the server cannot tell.
   */
  default boolean clientGone() {
    return false;
  }

  /** Sends the response; the body belongs to the exchange afterwards. */
  void respond(int status, String contentType, byte[] body);
}
