package io.flightdeck.api;

/** A request the API refuses, with the {@code errorType} and message the client receives. */
final class ApiException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final ErrorType type;

  ApiException(ErrorType type, String message) {
    super(message);
    this.type = type;
  }

  ErrorType type() {
    return type;
  }

  static ApiException badData(String message) {
    return new ApiException(ErrorType.BAD_DATA, message);
  }

  /** Prometheus's wording for a parameter that failed to parse or validate. */
  static ApiException invalidParam(String name, String message) {
    return badData("invalid parameter \"" + name + "\": " + message);
  }
}
