package io.flightdeck.api;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * The time one request has, and whether its client is still there, for the work the engine does not
 * see: writing a large result, looking up label values and series. {@link #check} fails the request
 * as the engine fails a query: {@code timeout} past the time, {@code canceled} once the client has
 * gone.
 */
final class RequestDeadline {
  private final long deadlineNanos;
  private final BooleanSupplier clientGone;

  private RequestDeadline(long deadlineNanos, BooleanSupplier clientGone) {
    this.deadlineNanos = deadlineNanos;
    this.clientGone = clientGone;
  }

  /** From now, {@code timeout} long, for the request {@code params} came with. */
  static RequestDeadline start(Params params, Duration timeout) {
    return new RequestDeadline(System.nanoTime() + timeout.toNanos(), params::clientGone);
  }

  /**
   * @param stage what the request is doing, for the message ({@code writing the result})
   * @throws ApiException {@code canceled} or {@code timeout}
   */
  void check(String stage) {
    if (clientGone.getAsBoolean()) {
      throw new ApiException(ErrorType.CANCELED, "query was canceled in " + stage);
    }
    if (System.nanoTime() - deadlineNanos > 0) {
      throw new ApiException(ErrorType.TIMEOUT, "query timed out in " + stage);
    }
  }
}
