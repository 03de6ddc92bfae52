package io.flightdeck.app;

import java.time.Duration;

/** Polls a condition instead of sleeping a fixed time: quick on a fast machine, patient on CI. */
final class Await {
  private static final long POLL_MILLIS = 200;

  /** A check that may throw, for conditions that ask a server. */
  @FunctionalInterface
  interface Condition {
    boolean holds() throws Exception;
  }

  private Await() {}

  /** Returns once {@code condition} holds; fails naming {@code what} after {@code timeout}. */
  static void until(Duration timeout, String what, Condition condition) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out after " + timeout + " waiting for " + what);
      }
      Thread.sleep(POLL_MILLIS);
    }
  }
}
