package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Six healthy hours of a 2 × 4 GPU run, seeded noise, and what real scraping adds: failed scrapes,
 * a ten-minute gap, counters reset by a reboot, staleness markers, a restart from a checkpoint. No
 * detector may fire: the only events are epochs and the restart.
 */
class RunDetectorsHealthyTest {
  private static final long HOURS_6 = 6 * 3600;
  private static final Set<String> FACTS = Set.of("epoch", "restart");

  private static List<RunEvent> eventsOf(Path dir, long seed, SimulatedRun.Faults faults) {
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun("healthy", 2, 4, 15, HOURS_6, seed, faults).write(store);
      RunCatalog catalog =
          new RunCatalog(
              store.tsdb,
              new ManualClock(TrainingStore.T0 + HOURS_6 * 1000),
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT);
      return catalog
          .events("healthy", TrainingStore.T0, TrainingStore.T0 + HOURS_6 * 1000)
          .orElseThrow();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static void assertOnlyFacts(List<RunEvent> events) {
    List<RunEvent> alarms = events.stream().filter(e -> !FACTS.contains(e.kind())).toList();
    assertEquals(List.of(), alarms, "no detector fires on a healthy run");
    assertTrue(events.stream().anyMatch(e -> e.kind().equals("epoch")), "the run was read");
  }

  @Test
  void noiseAloneRaisesNothing(@TempDir Path dir) {
    for (long seed = 1; seed <= 3; seed++) {
      assertOnlyFacts(eventsOf(dir.resolve("s" + seed), seed, new SimulatedRun.Faults()));
    }
  }

  @Test
  void failedScrapesAndAGapRaiseNothing(@TempDir Path dir) {
    java.util.Random random = new java.util.Random(7);
    Set<String> failed = new java.util.HashSet<>();
    assertOnlyFacts(
        eventsOf(
            dir,
            4,
            new SimulatedRun.Faults() {
              @Override
              boolean disturbed(String what, long s) {
                boolean gap = s >= 10_000 && s < 10_600;
                if (what.equals("rank") || what.equals("gpu") || what.equals("host")) {
                  return gap || failed.contains(what + s) || fails(what + s);
                }
                return false;
              }

              boolean fails(String key) {
                if (random.nextDouble() < 0.05) {
                  failed.add(key);
                  return true;
                }
                return false;
              }
            }));
  }

  @Test
  void countersResetAndStaleSeriesRaiseNothing(@TempDir Path dir) {
    assertOnlyFacts(
        eventsOf(
            dir,
            5,
            new SimulatedRun.Faults() {
              @Override
              boolean disturbed(String what, long s) {
                boolean down = s > 14_400 && s < 14_700; // a reboot: stale, silent, then reset
                return switch (what) {
                  case "stale" -> s == 14_400;
                  case "cpu_reset" -> s == 14_700;
                  case "rank", "gpu", "host" -> down;
                  default -> false;
                };
              }
            }));
  }

  @Test
  void aRestartFromACheckpointRaisesNothingButTheRestart(@TempDir Path dir) {
    List<RunEvent> events =
        eventsOf(
            dir,
            6,
            new SimulatedRun.Faults() {
              @Override
              long restartTo(long s) {
                return s == 12_000 ? 5_000 : -1; // 1,000 steps lost
              }
            });
    assertOnlyFacts(events);
    assertEquals(
        1, events.stream().filter(e -> e.kind().equals("restart")).count(), events.toString());
    assertEquals(
        Set.of("epoch", "restart"),
        events.stream().map(RunEvent::kind).collect(Collectors.toSet()));
  }
}
