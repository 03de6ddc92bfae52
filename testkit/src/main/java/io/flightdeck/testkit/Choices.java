package io.flightdeck.testkit;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.ToLongFunction;

/**
 * The stream of choices a {@link Gen} draws its values from.
 *
 * <p>A fresh case draws each choice at random and records it; a replay reads recorded choices back
 * (once they run out, every further choice is 0). A generator given the same choices builds the
 * same value, so a failing case is its list of choices, and shrinking works on that list alone:
 * every choice is a non-negative number read as unsigned, and a smaller choice means a simpler
 * value (an integer nearer zero, an earlier alternative, a list that stops sooner).
 */
public final class Choices {
  /** Past this many choices a case is discarded: no generator may loop without end. */
  private static final int MAX_CHOICES = 1 << 24;

  private final SplittableRandom random;
  private final long[] replay;
  private long[] recorded = new long[64];
  private int size;

  private Choices(SplittableRandom random, long[] replay) {
    this.random = random;
    this.replay = replay;
  }

  static Choices fresh(long seed) {
    return new Choices(new SplittableRandom(seed), null);
  }

  static Choices replaying(long[] choices) {
    return new Choices(null, choices);
  }

  /** The choices made so far, in order. */
  long[] recorded() {
    return Arrays.copyOf(recorded, size);
  }

  /**
   * One choice in {@code [0, max]} (unsigned). A fresh case takes it from {@code pick}; a replay
   * reads it, and discards the case when the recorded choice is out of bounds.
   */
  private long draw(long max, ToLongFunction<SplittableRandom> pick) {
    long choice;
    if (random != null) {
      choice = pick.applyAsLong(random);
    } else {
      choice = size < replay.length ? replay[size] : 0;
      if (Long.compareUnsigned(choice, max) > 0) {
        throw new Rejected("a replayed choice is out of bounds");
      }
    }
    if (size == recorded.length) {
      if (size >= MAX_CHOICES) {
        throw new Rejected("the case drew more than " + MAX_CHOICES + " choices");
      }
      recorded = Arrays.copyOf(recorded, size * 2);
    }
    recorded[size++] = choice;
    return choice;
  }

  /**
   * An integer in {@code [min, max]}, shrinking towards the one nearest zero. Fresh cases take the
   * bounds and their neighbours often, small values often, and otherwise any value of the range.
   */
  public long longBetween(long min, long max) {
    if (min > max) {
      throw new IllegalArgumentException("empty range [" + min + ", " + max + "]");
    }
    IntegerCoding coding = new IntegerCoding(min, max);
    long choice = draw(coding.maxChoice(), r -> coding.encode(pick(r, min, max, coding.target)));
    long value = coding.decode(choice);
    if (value < min || value > max) {
      throw new Rejected("a replayed integer is out of range");
    }
    return value;
  }

  /** An integer in {@code [min, max]}, as {@link #longBetween}. */
  public int intBetween(int min, int max) {
    return (int) longBetween(min, max);
  }

  /** True or false, shrinking towards false. */
  public boolean nextBoolean() {
    return draw(1, r -> r.nextBoolean() ? 1 : 0) != 0;
  }

  /** An index into {@code weights}, taken in proportion to them, shrinking towards the first. */
  public int weightedIndex(int... weights) {
    long total = 0;
    for (int w : weights) {
      if (w < 0) {
        throw new IllegalArgumentException("negative weight " + w);
      }
      total += w;
    }
    if (total == 0) {
      throw new IllegalArgumentException("no weights, or all of them zero");
    }
    long sum = total;
    int index =
        (int)
            draw(
                weights.length - 1,
                r -> {
                  long point = r.nextLong(sum);
                  int i = 0;
                  while (point >= weights[i]) {
                    point -= weights[i++];
                  }
                  return i;
                });
    if (weights[index] == 0) {
      throw new Rejected("a replayed choice picks an alternative of weight 0");
    }
    return index;
  }

  /**
   * A size in {@code [min, max]} that a fresh case aims for; a replay does not use it (the list's
   * "one more" choices say where it ends). Sizes at the bounds and small sizes come often.
   */
  int targetSize(int min, int max) {
    if (random == null) {
      return -1;
    }
    int kind = random.nextInt(20);
    if (kind < 2) {
      return min;
    }
    if (kind < 3) {
      return max;
    }
    if (kind < 8) {
      return min + random.nextInt(max - min + 1);
    }
    return min + random.nextInt(Math.min(max - min, 12) + 1);
  }

  /** Whether a list takes one more element: a fresh case says {@code wanted}, a replay reads it. */
  boolean more(boolean wanted) {
    return draw(1, r -> wanted ? 1 : 0) != 0;
  }

  private static long pick(SplittableRandom r, long min, long max, long target) {
    int kind = r.nextInt(16);
    if (kind < 2) {
      long[] edges = {min, max, target, target + 1, target - 1, min + 1, max - 1};
      long edge = edges[r.nextInt(edges.length)];
      // Neighbours past a bound of the range (or wrapping at Long's) fall back to the bound.
      return edge < min || edge > max ? min : edge;
    }
    if (kind < 9) {
      return uniform(r, min, max);
    }
    // Any magnitude equally likely by its bit length, so that small numbers come up.
    int bits = r.nextInt(65);
    long magnitude = bits == 0 ? 0 : r.nextLong() >>> (64 - bits);
    long up = max - target;
    long down = target - min;
    boolean upward = down == 0 || (up != 0 && r.nextBoolean());
    if (upward && Long.compareUnsigned(magnitude, up) <= 0) {
      return target + magnitude;
    }
    if (!upward && Long.compareUnsigned(magnitude, down) <= 0) {
      return target - magnitude;
    }
    return uniform(r, min, max);
  }

  private static long uniform(SplittableRandom r, long min, long max) {
    long span = max - min; // the number of values less one, unsigned
    if (span == -1L) {
      return r.nextLong();
    }
    if (span >= 0 && span < Long.MAX_VALUE) {
      return min + r.nextLong(span + 1);
    }
    long offset;
    do {
      offset = r.nextLong();
    } while (Long.compareUnsigned(offset, span) > 0);
    return min + offset;
  }

  /**
   * Integers of a range as choices: the distance from the value nearest zero, interleaving both
   * signs (0, -1, 1, -2, ...) when the range holds both.
   */
  private record IntegerCoding(long min, long max, long target) {
    IntegerCoding(long min, long max) {
      this(min, max, min > 0 ? min : max < 0 ? max : 0);
    }

    long maxChoice() {
      if (target == min || target == max) {
        return max - min;
      }
      long low = encode(min);
      long high = encode(max);
      return Long.compareUnsigned(low, high) > 0 ? low : high;
    }

    long encode(long value) {
      if (target == min) {
        return value - min;
      }
      if (target == max) {
        return max - value;
      }
      return (value << 1) ^ (value >> 63);
    }

    long decode(long choice) {
      if (target == min) {
        return min + choice;
      }
      if (target == max) {
        return max - choice;
      }
      return (choice >>> 1) ^ -(choice & 1);
    }
  }

  /**
   * A case that cannot be built: a filter found no value, or replayed choices make no sense for the
   * generators reading them. The property discards such a case. An Error, so that a test body's
   * {@code catch (Exception e)} cannot take it for the code's own failure.
   */
  static final class Rejected extends Error {
    Rejected(String why) {
      super(why, null, false, false);
    }
  }
}
