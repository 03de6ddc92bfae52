package io.flightdeck.testkit;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A property checked on many generated cases, inside an ordinary JUnit 5 test:
 *
 * <pre>{@code
 * @Test
 * void roundTrips() {
 *   Property.tries(500).check(in -> {
 *     long start = in.draw("start", Generators.longs());
 *     List<Double> values = in.draw("values", Generators.doubles().list(1, 400));
 *     ...assertions...
 *   });
 * }
 * }</pre>
 *
 * <p>Cases come from a seed: the system property {@value #SEED_PROPERTY} when set (a number, or
 * {@code random} for a fresh one), else a seed fixed by the test's class and method name, so that
 * every run, CI's included, tries the same cases. A case that throws is shrunk to a simpler one
 * that fails the same way, and the test fails with the seed, the case number, the inputs before and
 * after shrinking, and a one-line Maven command that runs the same cases again.
 */
public final class Property {
  public static final String SEED_PROPERTY = "flightdeck.seed";

  /** Replays of the body that shrinking may spend, unless a test sets its own. */
  public static final int DEFAULT_SHRINK_BUDGET = 2000;

  private final int tries;
  private Long seed;
  private int shrinkBudget = DEFAULT_SHRINK_BUDGET;

  private Property(int tries) {
    if (tries < 1) {
      throw new IllegalArgumentException("tries must be positive, not " + tries);
    }
    this.tries = tries;
  }

  /** A property that must hold in {@code tries} cases. */
  public static Property tries(int tries) {
    return new Property(tries);
  }

  /** The seed to use where {@value #SEED_PROPERTY} is not set, in place of the test's own. */
  public Property seed(long seed) {
    this.seed = seed;
    return this;
  }

  public Property shrinkBudget(int replays) {
    this.shrinkBudget = replays;
    return this;
  }

  /** What a property says of one case. */
  @FunctionalInterface
  public interface Body {
    void run(Inputs inputs) throws Exception;
  }

  /**
   * Runs the body on {@code tries} cases and returns how the body classified them.
   *
   * @throws AssertionError reporting the first case that fails, shrunk
   */
  public Coverage check(Body body) {
    TestCoordinates where = TestCoordinates.ofCaller();
    long runSeed = seedFor(System.getProperty(SEED_PROPERTY), seed, where);
    Map<String, Integer> counts = new HashMap<>();
    int passed = 0;
    int discarded = 0;
    for (int attempt = 1; passed < tries; attempt++) {
      Inputs inputs = new Inputs(Choices.fresh(caseSeed(runSeed, attempt)), false);
      Throwable failure = run(body, inputs);
      if (failure instanceof Choices.Rejected) {
        if (++discarded > Math.max(100, tries * 5)) {
          throw new AssertionError(
              where.simpleClassName()
                  + "#"
                  + where.method()
                  + ": "
                  + discarded
                  + " cases discarded after "
                  + passed
                  + " passed ("
                  + failure.getMessage()
                  + "): its generators rarely make what the property needs");
        }
        continue;
      }
      if (failure != null) {
        throw report(body, where, runSeed, attempt, inputs.choices().recorded(), failure);
      }
      passed++;
      for (String label : inputs.labels()) {
        counts.merge(label, 1, Integer::sum);
      }
    }
    return new Coverage(passed, counts);
  }

  /** The body's failure, or null when it passes; errors the JVM cannot go on from pass through. */
  private static Throwable run(Body body, Inputs inputs) {
    try {
      body.run(inputs);
      return null;
    } catch (VirtualMachineError fatal) {
      throw fatal;
    } catch (Throwable failure) {
      return failure;
    }
  }

  private AssertionError report(
      Body body,
      TestCoordinates where,
      long runSeed,
      int attempt,
      long[] choices,
      Throwable failure) {
    String original = String.join("\n    ", describe(body, choices));
    Shrinker shrinker =
        new Shrinker(
                candidate -> {
                  Inputs inputs = new Inputs(Choices.replaying(candidate), false);
                  Throwable replayed = run(body, inputs);
                  return new Shrinker.Replay(
                      inputs.choices().recorded(),
                      replayed instanceof Choices.Rejected ? null : replayed);
                },
                choices,
                failure,
                shrinkBudget)
            .run();
    String shrunk = String.join("\n    ", describe(body, shrinker.best()));
    Throwable cause = shrinker.bestFailure();
    String message =
        "Property "
            + where.simpleClassName()
            + "#"
            + where.method()
            + " failed at case "
            + attempt
            + " (seed "
            + runSeed
            + ", "
            + tries
            + " tries)\n  shrunk input ("
            + shrinker.replays()
            + " replays):\n    "
            + shrunk
            + "\n  failure: "
            + firstLines(cause)
            + "\n  original input:\n    "
            + original
            + "\n  reproduce: "
            + where.reproduction(runSeed);
    return new AssertionError(message, cause);
  }

  /** The inputs the body draws from these choices, named, as it draws them. */
  private static List<String> describe(Body body, long[] choices) {
    Inputs inputs = new Inputs(Choices.replaying(choices), true);
    run(body, inputs);
    return inputs.described().isEmpty() ? List.of("(no inputs)") : inputs.described();
  }

  private static String firstLines(Throwable failure) {
    String text = String.valueOf(failure);
    String[] lines = text.split("\n", 8);
    String head = String.join("\n    ", List.of(lines).subList(0, Math.min(lines.length, 7)));
    return head.length() > 2000 ? head.substring(0, 2000) + "..." : head;
  }

  /** The run's seed: the system property if set, else the test's given seed, else its default. */
  static long seedFor(String configured, Long given, TestCoordinates where) {
    if (configured == null || configured.isBlank()) {
      return given != null ? given : where.defaultSeed();
    }
    if (configured.trim().equals("random")) {
      return System.nanoTime() * 0x9E3779B97F4A7C15L;
    }
    try {
      return Long.decode(configured.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "system property "
              + SEED_PROPERTY
              + " must be a number or \"random\", not \""
              + configured
              + "\"",
          e);
    }
  }

  /** Each case's own seed, so that case n is the same whatever the cases before it drew. */
  static long caseSeed(long runSeed, int attempt) {
    long z = runSeed + attempt * 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
