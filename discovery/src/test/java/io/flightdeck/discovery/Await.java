package io.flightdeck.discovery;

import java.util.function.BooleanSupplier;

/** Polls a condition with a deadline instead of sleeping a fixed time. */
final class Await {
  private Await() {}

  static void until(BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + DiscovererContractTest.WAIT.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("condition not met within " + DiscovererContractTest.WAIT);
      }
      Thread.sleep(20);
    }
  }
}
