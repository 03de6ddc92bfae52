package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A re-warm-up whose loss rebound grows slowly is found two scrapes after the rate leaves its
 * floor, at 20 s scrapes on 8 ranks whose loss is still falling; a rate that re-warms while the
 * loss keeps falling (a cyclic schedule working as meant) is no event.
 */
class LrRewarmupsTest {
  private static final long HOURS_2 = 7200;
  private static final long EVERY = 20;

  /** At 0.5 steps/s the rate floors at step 1,710 and re-warms from step 1,800 (3,600 s). */
  private static final long ONSET = 3600;

  @TempDir Path dir;

  private static SimulatedRun.Faults rewarm(double rebound) {
    long at = Math.round(ONSET * SimulatedRun.STEPS_PER_SECOND);
    return new SimulatedRun.Faults() {
      @Override
      double learningRate(long step, double healthy) {
        if (step < at) {
          return 3e-4 * Math.max(0.05, 1 - step / (double) at);
        }
        long s = step - at;
        return s < 200 ? 3e-4 * (s + 1) / 200 : 3e-4 * Math.max(0.05, 1 - (s - 200) / 3000.0);
      }

      @Override
      double loss(int rank, long s, double healthy) {
        long step = Math.round(s * SimulatedRun.STEPS_PER_SECOND);
        // A time constant of 200 steps (400 s): a few hundredths in the first minute.
        return step < at ? healthy : healthy + rebound * (1 - Math.exp(-(step - at) / 200.0));
      }
    };
  }

  private List<RunEvent> rewarmups(TrainingStore store, long endSeconds) {
    return new RunCatalog(
            store.tsdb,
            new ManualClock(TrainingStore.T0 + HOURS_2 * 1000),
            RunHParams.NONE,
            RunCatalogOptions.DEFAULT)
        .events("r", TrainingStore.T0, TrainingStore.T0 + endSeconds * 1000).orElseThrow().stream()
            .filter(e -> e.kind().equals("lr_rewarmup"))
            .toList();
  }

  @Test
  void aSlowSmallReboundIsFoundTwoScrapesIn() throws Exception {
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun("r", 2, 4, EVERY, HOURS_2, 7, rewarm(0.8)).write(store);
      // One scrape after the rate left its floor the rebound is 0.04 at most: not yet; two in,
      // about
      // 0.05 on a loss still falling by 0.006 a scrape (a single rank took seven scrapes before).
      assertEquals(List.of(), rewarmups(store, ONSET + EVERY));
      List<RunEvent> found = rewarmups(store, ONSET + 2 * EVERY);
      assertEquals(1, found.size(), found.toString());
      RunEvent event = found.get(0);
      // Dated where the rate left its floor (the last scrape at it), not where it reached it.
      assertTrue(
          Math.abs(event.timeMs() - (TrainingStore.T0 + ONSET * 1000)) <= EVERY * 1000,
          "at " + (event.timeMs() - TrainingStore.T0) / 1000);
      assertEquals(8, event.evidence().get("loss_series_count"));
      assertTrue(
          (Double) event.evidence().get("loss_after")
              > (Double) event.evidence().get("loss_before"));
      // Over the whole run: still the one event.
      assertEquals(1, rewarmups(store, HOURS_2).size());
    }
  }

  @Test
  void aReWarmUpWhileTheLossKeepsFallingIsNoEvent() throws Exception {
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun("r", 2, 4, EVERY, HOURS_2, 11, rewarm(0)).write(store);
      assertEquals(List.of(), rewarmups(store, HOURS_2));
    }
  }
}
