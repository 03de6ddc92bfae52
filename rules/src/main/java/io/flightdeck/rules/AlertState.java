package io.flightdeck.rules;

/** An alert's state, ordered so that the greatest is the rule's state. */
public enum AlertState {
  INACTIVE,
  PENDING,
  FIRING;

  /** The word Prometheus's API and the {@code alertstate} label use. */
  public String text() {
    return name().toLowerCase();
  }
}
