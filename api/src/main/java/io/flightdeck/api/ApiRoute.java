package io.flightdeck.api;

/**
 * One endpoint: method, path (with {@code {name}} for path parameters, the syntax Javalin and most
 * routers share) and the handler.
 */
public record ApiRoute(String method, String path, Handler handler) {
  /** Answers one exchange; never throws for a bad request, it responds with an error instead. */
  @FunctionalInterface
  public interface Handler {
    void handle(ApiExchange exchange);
  }
}
