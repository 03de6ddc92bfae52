package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.function.LongToDoubleFunction;
import org.junit.jupiter.api.Test;

/** A pace's drift is told from its noise, and its level now is where the drift has brought it. */
class PaceTrendTest {
  private static final long FROM = 1_000_000;

  /** Intervals of {@code every} seconds over {@code seconds}, at the pace {@code pace(t)}. */
  private static PaceTrend fit(long seconds, long every, LongToDoubleFunction pace) {
    int n = (int) (seconds / every);
    double[] rates = new double[n];
    double[] lengths = new double[n];
    long[] ends = new long[n];
    for (int i = 0; i < n; i++) {
      rates[i] = pace.applyAsDouble(i * every + every / 2);
      lengths[i] = every;
      ends[i] = FROM + (i + 1) * every * 1000;
    }
    return PaceTrend.of(rates, lengths, ends, FROM, FROM + n * every * 1000, every * 1000);
  }

  @Test
  void aLinearSlowdownIsADriftAndItsLevelIsTheEndsPace() {
    PaceTrend trend = fit(1800, 10, t -> 2.0 - 0.5 * t / 1800.0);
    assertNotNull(trend);
    assertTrue(trend.drifting(), trend.toString());
    assertEquals(1.5, trend.level(), 0.02);
    assertTrue(trend.slope() < 0);
    // Going on for one more window: a further 0.5 down, never below half the level.
    assertEquals(1.0, trend.onceMore(), 0.03);
  }

  @Test
  void noiseWithoutADriftIsRarelyADrift() {
    // A pace wandering ±20% by the minute, over 30 minutes scraped every 15 s: the 95% test,
    // widened for neighbouring blocks sharing a minute, flags few of 200 such runs.
    int drifting = 0;
    for (long seed = 0; seed < 200; seed++) {
      SplittableRandom random = new SplittableRandom(seed);
      double[] byMinute = new double[31];
      for (int m = 0; m < byMinute.length; m++) {
        byMinute[m] = 1 + 0.2 * (2 * random.nextDouble() - 1);
      }
      PaceTrend trend = fit(1800, 15, t -> byMinute[(int) (t / 60)]);
      assertNotNull(trend);
      drifting += trend.drifting() ? 1 : 0;
      assertEquals(1.0, trend.mean(), 4 * trend.meanError() + 0.01, "seed " + seed);
    }
    assertTrue(drifting <= 12, drifting + " of 200 read as drifting");
  }

  @Test
  void aDriftTooSmallToMatterIsNotActedOn() {
    // 2% over the window, however clean.
    PaceTrend trend = fit(1800, 10, t -> 1.0 - 0.02 * t / 1800.0);
    assertNotNull(trend);
    assertFalse(trend.drifting(), trend.toString());
  }

  @Test
  void tooFewStepChangesTellNothing() {
    assertNull(fit(600, 120, t -> 1.0));
  }
}
