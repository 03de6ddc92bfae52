package io.flightdeck.demo;

/**
 * The simulated clock: starts at 0 when the demo starts, runs {@code speed} times faster than real
 * time and stops at the end of the simulated job.
 */
final class DemoClock {
  private final double speed;
  private final double endSeconds;
  private final long startNanos = System.nanoTime();
  private final double startWallSeconds = System.currentTimeMillis() / 1000.0;

  DemoClock(double speed, double endSeconds) {
    this.speed = speed;
    this.endSeconds = endSeconds;
  }

  double simSeconds() {
    return Math.min(endSeconds, (System.nanoTime() - startNanos) / 1e9 * speed);
  }

  boolean finished() {
    return simSeconds() >= endSeconds;
  }

  /** The unix time (seconds) at which simulated second {@code sim} comes. */
  double wallTimeOf(double sim) {
    return startWallSeconds + sim / speed;
  }

  /** The simulated second of unix time {@code wallSeconds}. */
  double simSecondsAt(double wallSeconds) {
    return (wallSeconds - startWallSeconds) * speed;
  }
}
