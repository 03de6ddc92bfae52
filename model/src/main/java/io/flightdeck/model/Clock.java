package io.flightdeck.model;

/** The source of "now" in milliseconds since the Unix epoch; tests inject a manual clock. */
@FunctionalInterface
public interface Clock {
  long millis();

  static Clock system() {
    return System::currentTimeMillis;
  }
}
