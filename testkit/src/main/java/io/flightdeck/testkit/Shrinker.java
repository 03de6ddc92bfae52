package io.flightdeck.testkit;

import java.util.Arrays;
import java.util.function.Function;

/**
 * Makes a failing case's choices simpler while the property still fails the same way: deletes
 * blocks of choices (an element of a list, the tail of a list), zeroes them, and lowers each choice
 * as far as it will go. Simpler means fewer choices, then smaller ones read left to right, so every
 * step makes progress and the search ends; a budget of replays bounds it as well.
 */
final class Shrinker {
  /**
   * One replay of the body on candidate choices: the choices it read, and how it failed if it did.
   */
  record Replay(long[] consumed, Throwable failure) {}

  private final Function<long[], Replay> replay;
  private final Class<? extends Throwable> failureType;
  private int budget;
  private int replays;
  private long[] best;
  private Throwable bestFailure;

  Shrinker(Function<long[], Replay> replay, long[] failing, Throwable failure, int budget) {
    this.replay = replay;
    this.failureType = failure.getClass();
    this.best = failing;
    this.bestFailure = failure;
    this.budget = budget;
  }

  long[] best() {
    return best;
  }

  Throwable bestFailure() {
    return bestFailure;
  }

  int replays() {
    return replays;
  }

  Shrinker run() {
    boolean improved = true;
    while (improved && budget > 0) {
      improved = deleteBlocks();
      improved |= zeroBlocks();
      improved |= lowerEachChoice();
    }
    return this;
  }

  private boolean deleteBlocks() {
    boolean improved = false;
    for (int size : blockSizes()) {
      for (int at = best.length - size; at >= 0 && budget > 0; at--) {
        long[] candidate = new long[best.length - size];
        System.arraycopy(best, 0, candidate, 0, at);
        System.arraycopy(best, at + size, candidate, at, best.length - at - size);
        if (accepts(candidate)) {
          improved = true;
          at = Math.min(at + 1, best.length - size + 1);
        }
      }
    }
    return improved;
  }

  private boolean zeroBlocks() {
    boolean improved = false;
    for (int size : new int[] {8, 4, 2}) {
      for (int at = 0; at + size <= best.length && budget > 0; at++) {
        long[] candidate = best.clone();
        boolean changed = false;
        for (int i = at; i < at + size; i++) {
          changed |= candidate[i] != 0;
          candidate[i] = 0;
        }
        if (changed) {
          improved |= accepts(candidate);
        }
      }
    }
    return improved;
  }

  /**
   * Each choice to 0 if the failure allows, else as low as a binary search finds it still fails.
   */
  private boolean lowerEachChoice() {
    boolean improved = false;
    for (int i = 0; i < best.length && budget > 0; i++) {
      if (best[i] == 0) {
        continue;
      }
      if (accepts(with(i, 0))) {
        improved = true;
        continue;
      }
      long low = 0; // fails no more
      long high = best[i]; // still fails
      while (Long.compareUnsigned(high - low, 1) > 0 && budget > 0 && i < best.length) {
        long middle = low + ((high - low) >>> 1);
        if (accepts(with(i, middle))) {
          improved = true;
          high = middle;
        } else {
          low = middle;
        }
      }
    }
    return improved;
  }

  private long[] with(int index, long choice) {
    long[] candidate = best.clone();
    candidate[index] = choice;
    return candidate;
  }

  /** Deleting halves, quarters... of the choices first, then single elements' worth of them. */
  private int[] blockSizes() {
    int[] sizes = new int[32];
    int count = 0;
    for (int size = best.length / 2; size > 8; size /= 2) {
      sizes[count++] = size;
    }
    for (int size = 8; size >= 1; size--) {
      sizes[count++] = size;
    }
    return Arrays.copyOf(sizes, count);
  }

  private boolean accepts(long[] candidate) {
    if (budget <= 0) {
      return false;
    }
    budget--;
    replays++;
    Replay result = replay.apply(candidate);
    if (result.failure() == null
        || result.failure().getClass() != failureType
        || !simpler(result.consumed(), best)) {
      return false;
    }
    best = result.consumed();
    bestFailure = result.failure();
    return true;
  }

  private static boolean simpler(long[] a, long[] b) {
    return a.length != b.length ? a.length < b.length : Arrays.compareUnsigned(a, b) < 0;
  }
}
