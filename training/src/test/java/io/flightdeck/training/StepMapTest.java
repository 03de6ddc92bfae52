package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The bulk step lookup and the primitive time sort agree with their one-by-one definitions. */
class StepMapTest {
  private static final long T0 = 1_700_000_000_000L;

  @Test
  void stepsAtGivesWhatStepAtGivesForEveryTimeOfARunWithRestartsAndStalls() {
    for (int seed = 0; seed < 50; seed++) {
      Random random = new Random(seed);
      StepMap map = StepMapBuilder.build(ranks(random), T0);
      // Ascending times before, inside, between and after the segments, with repeats.
      long[] times = new long[400];
      long t = T0 - 60_000;
      for (int i = 0; i < times.length; i++) {
        t += random.nextInt(4) == 0 ? 0 : random.nextInt(30_000);
        times[i] = t;
      }
      assertArrayEquals(oneByOne(map, times), map.stepsAt(times), "seed " + seed);
      long[] shuffled = times.clone();
      for (int i = shuffled.length - 1; i > 0; i--) {
        int j = random.nextInt(i + 1);
        long swap = shuffled[i];
        shuffled[i] = shuffled[j];
        shuffled[j] = swap;
      }
      assertArrayEquals(
          oneByOne(map, shuffled), map.stepsAt(shuffled), "times out of order, seed " + seed);
    }
  }

  @Test
  void anEmptyMapHasNoStepAnywhere() {
    assertArrayEquals(
        new double[] {Double.NaN, Double.NaN}, StepMap.EMPTY.stepsAt(new long[] {T0, T0 + 1}));
  }

  @Test
  void timeOrderIsTheStableOrderOfTheTimes() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      int n = 1 + random.nextInt(500);
      long[] times = new long[n];
      for (int i = 0; i < n; i++) {
        times[i] = T0 + random.nextInt(50) * 15_000L;
      }
      Integer[] expected = new Integer[n];
      Arrays.setAll(expected, i -> i);
      Arrays.sort(expected, (a, b) -> Long.compare(times[a], times[b]));
      assertArrayEquals(
          Arrays.stream(expected).mapToInt(Integer::intValue).toArray(),
          StepMapBuilder.timeOrder(times, n));
    }
    long[] far = {Long.MAX_VALUE / 2, 0, Long.MAX_VALUE / 2 - 1};
    assertArrayEquals(new int[] {1, 2, 0}, StepMapBuilder.timeOrder(far, 3), "keys that overflow");
  }

  /** Up to four ranks stepping at their own pace, a restart from a checkpoint, a stall. */
  private static List<SeriesReads.Samples> ranks(Random random) {
    int count = 1 + random.nextInt(4);
    int restartAt = 20 + random.nextInt(40);
    int stallFrom = random.nextInt(80);
    List<SeriesReads.Samples> ranks = new ArrayList<>();
    for (int r = 0; r < count; r++) {
      int n = 60 + random.nextInt(60);
      long[] times = new long[n];
      double[] steps = new double[n];
      double step = 0;
      for (int i = 0; i < n; i++) {
        times[i] = T0 + i * 15_000L + r * 700L;
        if (i == restartAt) {
          step = Math.max(0, step - 40);
        } else if (i < stallFrom || i > stallFrom + 10) {
          step += 1 + random.nextInt(20);
        }
        steps[i] = step;
      }
      ranks.add(new SeriesReads.Samples(times, steps));
    }
    return ranks;
  }

  private static double[] oneByOne(StepMap map, long[] times) {
    double[] out = new double[times.length];
    for (int i = 0; i < times.length; i++) {
      Double step = map.stepAt(times[i]);
      out[i] = step == null ? Double.NaN : step;
    }
    assertEquals(times.length, out.length);
    return out;
  }
}
