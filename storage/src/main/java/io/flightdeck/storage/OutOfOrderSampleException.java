package io.flightdeck.storage;

/** A sample older than the newest sample of its series, outside the out-of-order window. */
public final class OutOfOrderSampleException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public OutOfOrderSampleException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "out_of_order";
  }
}
