package io.flightdeck.discovery;

/** A source of targets that could not be read or decoded; the message names the source. */
public final class DiscoveryException extends Exception {
  private static final long serialVersionUID = 1L;

  public DiscoveryException(String message) {
    super(message);
  }

  public DiscoveryException(String message, Throwable cause) {
    super(message, cause);
  }
}
