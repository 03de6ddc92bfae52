package io.flightdeck.storage;

/** A sample stamped further in the future than the store accepts (10 minutes, as Prometheus). */
public final class SampleTooFarInFutureException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public SampleTooFarInFutureException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "too_far_in_future";
  }
}
