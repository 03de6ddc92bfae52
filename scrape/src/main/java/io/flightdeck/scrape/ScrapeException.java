package io.flightdeck.scrape;

/**
 * A scrape that failed as a whole: unreachable, timed out, bad status, unparseable body, or a limit
 * broken. The message is what the targets API shows as {@code lastError}.
 */
final class ScrapeException extends Exception {
  private static final long serialVersionUID = 1L;

  ScrapeException(String message) {
    super(message);
  }

  ScrapeException(String message, Throwable cause) {
    super(message, cause);
  }
}
