package io.flightdeck.storage;

/** A second, different value for a timestamp the series already has. */
public final class DuplicateSampleException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public DuplicateSampleException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "duplicate_timestamp";
  }
}
