package io.flightdeck.notify;

/**
 * A notification did not reach its receiver. Retryable failures (network errors, timeouts, 5xx and
 * 429 answers) are tried again with backoff; the others wait for the next regular attempt.
 */
final class DeliveryException extends Exception {
  private final boolean retryable;
  private final int status;

  DeliveryException(String message, boolean retryable) {
    this(message, retryable, 0);
  }

  /** An answer with an HTTP status other than 2xx. */
  DeliveryException(String message, boolean retryable, int status) {
    super(message);
    this.retryable = retryable;
    this.status = status;
  }

  DeliveryException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
    this.status = 0;
  }

  /** The receiver's HTTP status, or 0 when it did not answer. */
  int status() {
    return status;
  }

  boolean retryable() {
    return retryable;
  }
}
