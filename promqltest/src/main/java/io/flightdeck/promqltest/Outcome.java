package io.flightdeck.promqltest;

/**
 * What running one command gave. Only eval commands always have an outcome; a load has one when it
 * failed or left series out, a clear never.
 *
 * @param line the command's header line
 * @param query the eval's query, or {@code load} for a load block
 * @param message why it failed or was skipped; empty when it passed
 */
public record Outcome(int line, String query, Status status, String message) {

  public enum Status {
    PASSED,
    FAILED,
    SKIPPED
  }

  static Outcome passed(int line, String query) {
    return new Outcome(line, query, Status.PASSED, "");
  }

  static Outcome failed(int line, String query, String message) {
    return new Outcome(line, query, Status.FAILED, message);
  }

  static Outcome skipped(int line, String query, String reason) {
    return new Outcome(line, query, Status.SKIPPED, reason);
  }
}
