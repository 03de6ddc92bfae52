package io.flightdeck.scrape;

import io.flightdeck.model.Labels;

/**
 * Spreads scrapes over the interval: each target fires at a fixed phase derived from its labels, so
 * the phase is the same after a restart and targets do not all fire at once.
 */
final class Offsets {
  private Offsets() {}

  /** Milliseconds from {@code now} until the target's next phase point. */
  static long initialDelay(Labels target, long intervalMillis, long now) {
    long phase = Math.floorMod(target.stableHash(), intervalMillis);
    return Math.floorMod(phase - now, intervalMillis);
  }
}
