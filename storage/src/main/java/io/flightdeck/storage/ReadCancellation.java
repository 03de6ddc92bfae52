package io.flightdeck.storage;

import java.util.function.Supplier;

/**
 * A check set for the thread that answers one request, which the index's long loops (label values
 * and names over many series, regex matchers over many values) call now and then: it throws when
 * the request's time is up or its client went away, so that such a loop stops as a query does. A
 * thread without a check set runs its loops to the end.
 */
public final class ReadCancellation {
  /** How many loop turns pass between two checks: a check is cheap, a turn cheaper. */
  public static final int EVERY = 256;

  private static final ThreadLocal<Runnable> CHECK = new ThreadLocal<>();

  private ReadCancellation() {}

  /** Runs {@code work} with {@code check} called at the checkpoints it reaches on this thread. */
  public static <T> T during(Runnable check, Supplier<T> work) {
    Runnable previous = CHECK.get();
    CHECK.set(check);
    try {
      return work.get();
    } finally {
      if (previous == null) {
        CHECK.remove();
      } else {
        CHECK.set(previous);
      }
    }
  }

  /**
   * Calls this thread's check, if any, when {@code turn} is a multiple of {@link #EVERY}.
   *
   * @param turn the caller's loop counter
   * @throws RuntimeException whatever the check throws to stop the work
   */
  public static void checkpoint(int turn) {
    if (turn % EVERY == 0) {
      Runnable check = CHECK.get();
      if (check != null) {
        check.run();
      }
    }
  }
}
