package io.flightdeck.storage;

/**
 * A series whose labels break a rule: no metric name, names or values too long, too many labels.
 */
public final class InvalidLabelsException extends SampleRejectedException {
  private static final long serialVersionUID = 1L;

  public InvalidLabelsException(String message) {
    super(message);
  }

  @Override
  public String reason() {
    return "invalid_labels";
  }
}
