package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A memory staircase whose epochs are too long for the detection loop's window (20-minute epochs, a
 * 30-minute window: the three boundaries of two steps never fit) is found by the background passes
 * too, not only on demand over the whole run, because the staircase detector alone looks further
 * back.
 */
class DetectionLoopStaircaseTest {
  private static final long HOURS_2 = 2 * 3600;

  /** Epochs of 1,200 s: the leak steps up at 3,600 s (epoch 3) and 4,800 s (epoch 4). */
  private static final long SECOND_STEP = 4800;

  @TempDir Path dir;

  @Test
  void aStaircaseLongerThanTheWindowIsFoundByThePasses() throws Exception {
    try (TrainingStore store = new TrainingStore(dir)) {
      new SimulatedRun(
              "leaking",
              2,
              4,
              15,
              HOURS_2,
              3,
              new SimulatedRun.Faults() {
                @Override
                double extraMemory(int rank, long s, long epoch) {
                  return epoch >= 3 ? 2800 * (epoch - 2) : 0;
                }
              })
          .write(store);
      Duration window = Duration.ofMinutes(30);
      ManualClock clock = new ManualClock(at(SECOND_STEP - 60));
      RunCatalog catalog =
          new RunCatalog(
              store.tsdb,
              clock,
              RunHParams.NONE,
              RunCatalogOptions.DEFAULT.withDetectionWindow(window));
      DetectionLoop loop = new DetectionLoop(catalog, store.tsdb, clock, Duration.ofSeconds(15));
      // Before the second step has its entry samples: nothing.
      assertEquals(List.of(), staircases(store, loop, window, clock));
      // Two minutes after it (its entry is 4 samples at 15 s): the next pass finds it, and it is
      // a detection series (new to the loop, though its first step is 22 minutes back).
      clock.set(at(SECOND_STEP + 120));
      List<String> found = staircases(store, loop, window, clock);
      assertEquals(1, found.size(), found.toString());
      assertTrue(found.get(0).contains("DCGM_FI_DEV_FB_USED rises by"), found.toString());
    }
  }

  private static long at(long seconds) {
    return TrainingStore.T0 + seconds * 1000;
  }

  /**
   * One pass of the loop at the clock's time: the staircase events of its cache over its window and
   * the detection series it wrote (their titles), which must agree.
   */
  private static List<String> staircases(
      TrainingStore store, DetectionLoop loop, Duration window, ManualClock clock) {
    long now = clock.millis();
    loop.pass();
    long from = now - window.toMillis();
    assertTrue(loop.covers("leaking", from, now));
    List<RunEvent> events =
        loop.events("leaking", from, now).orElseThrow().stream()
            .filter(e -> e.kind().equals("staircase"))
            .toList();
    List<String> series = new ArrayList<>();
    try (Querier q = store.tsdb.querier(now, now)) {
      SeriesSet set =
          q.select(
              false,
              Matcher.equal(Labels.METRIC_NAME, DetectionLoop.METRIC),
              Matcher.equal("kind", "staircase"));
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          if (it.timestamp() == now && it.value() == 1) {
            series.add(set.at().labels().get("title"));
          }
        }
      }
    }
    assertEquals(events.size(), series.size(), events + " against " + series);
    return series;
  }
}
