package io.flightdeck.storage;

/** A sample older than the retention period, which would be deleted at once. */
public final class SampleTooOldException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public SampleTooOldException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "too_old";
  }
}
