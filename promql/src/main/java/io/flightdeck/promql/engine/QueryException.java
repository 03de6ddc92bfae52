package io.flightdeck.promql.engine;

/**
 * A query that parsed but could not be evaluated. The message is Prometheus's text for the same
 * failure (for example {@code query processing would load too many samples into memory in query
 * execution}); {@link #kind()} says which API {@code errorType} it maps to.
 */
public final class QueryException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Failure kinds, named after the API's {@code errorType}s. */
  public enum Kind {
    /** Bad input found only at evaluation (an invalid regex in {@code label_replace}, a step). */
    BAD_DATA,
    /** The query ran into a limit or a semantic error while running. */
    EXECUTION,
    /** The query ran past its timeout. */
    TIMEOUT,
    /** The query was canceled (the server is stopping). */
    CANCELED,
    /** The storage could not be read. */
    UNAVAILABLE
  }

  private final Kind kind;

  public QueryException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public QueryException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
