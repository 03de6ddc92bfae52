package io.flightdeck.notify;

/**
 * A notification did not reach its receiver. Retryable failures (network errors, timeouts, 5xx and
 * 429 answers) are tried again with backoff; the others wait for the next regular attempt.
 */
final class DeliveryException extends Exception {
  private final boolean retryable;

  DeliveryException(String message, boolean retryable) {
    super(message);
    this.retryable = retryable;
  }

  DeliveryException(String message, boolean retryable, Throwable cause) {
    super(message, cause);
    this.retryable = retryable;
  }

  boolean retryable() {
    return retryable;
  }
}
