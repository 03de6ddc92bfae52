package io.flightdeck.remote;

/**
 * A push whose text parses but that Pushgateway would refuse as "invalid or inconsistent": a sample
 * with its own timestamp, or one series twice. The message names the line.
 */
final class InvalidPushException extends Exception {
  InvalidPushException(String message) {
    super(message);
  }
}
