package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which events are series at a pass, and under which labels. */
class ActiveDetectionsTest {
  private static final long MIN = 60_000;
  private static final long NOW = 100 * MIN;

  private final ActiveDetections detections =
      new ActiveDetections("flightdeck_run_detection", "run", 5 * MIN, 90_000);

  private static RunEvent event(String kind, long time, Long end, String title) {
    return new RunEvent(kind, time, end, null, "node-1", "2", title, Map.of("rank", "6"), Map.of());
  }

  @Test
  void anOpenIntervalIsASeriesNamingRunHostGpuRankAndTitle() {
    Set<Labels> active =
        detections.of(
            "r", List.of(event("hung_rank", NOW - 5 * MIN, null, "GPU 2 hangs")), 0, NOW, NOW);
    assertEquals(
        Set.of(
            Labels.of(
                "__name__",
                "flightdeck_run_detection",
                "run",
                "r",
                "kind",
                "hung_rank",
                "Hostname",
                "node-1",
                "gpu",
                "2",
                "rank",
                "6",
                "title",
                "GPU 2 hangs")),
        active);
  }

  @Test
  void anIntervalThatEndedBeforeTheDataEndsIsNotAndRestartsOrEpochsNeverAre() {
    List<RunEvent> events =
        List.of(
            event("throughput_drop", NOW - 30 * MIN, NOW - 10 * MIN, "drop"),
            event("restart", NOW - MIN, null, "restart"),
            event("epoch", NOW - MIN, null, "epoch 3"));
    assertTrue(detections.of("r", events, 0, NOW, NOW).isEmpty());
  }

  @Test
  void aMomentIsASeriesForTheHoldAfterItIsFirstSeenButNotOneAlreadyThereAtTheFirstLook() {
    RunEvent old = event("spike", NOW - 20 * MIN, null, "old spike");
    assertTrue(detections.of("r", List.of(old), 0, NOW, NOW).isEmpty());
    RunEvent fresh = event("spike", NOW + 10_000, null, "new spike");
    assertEquals(1, detections.of("r", List.of(old, fresh), 0, NOW + 15_000, NOW + 15_000).size());
    assertEquals(1, detections.of("r", List.of(old, fresh), 0, NOW + 15_000, NOW + 4 * MIN).size());
    assertTrue(detections.of("r", List.of(old, fresh), 0, NOW + 15_000, NOW + 6 * MIN).isEmpty());
  }

  @Test
  void aMomentInTheUnsettledStartOfTheWindowIsNeverNew() {
    detections.of("r", List.of(), 0, NOW, NOW);
    RunEvent early = event("lr_rewarmup", NOW - 40 * MIN, null, "re-warms");
    assertTrue(detections.of("r", List.of(early), NOW - 30 * MIN, NOW, NOW).isEmpty());
  }

  @Test
  void aDetectionThatGoesOnKeepsItsFirstTitle() {
    Set<Labels> first =
        detections.of(
            "r",
            List.of(event("throughput_drop", NOW - MIN, null, "fell to 2 from 7.5")),
            0,
            NOW,
            NOW);
    Set<Labels> next =
        detections.of(
            "r",
            List.of(event("throughput_drop", NOW - MIN, null, "fell to 2 from 7.4")),
            0,
            NOW + 15_000,
            NOW + 15_000);
    assertEquals(first, next);
    assertEquals("fell to 2 from 7.5", next.iterator().next().get("title"));
  }
}
