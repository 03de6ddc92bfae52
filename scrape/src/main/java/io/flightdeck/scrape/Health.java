package io.flightdeck.scrape;

import java.util.Locale;

/** The outcome of a target's latest scrape. */
public enum Health {
  UNKNOWN,
  UP,
  DOWN;

  /** The lower-case name the targets API uses. */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }
}
