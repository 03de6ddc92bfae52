package io.flightdeck.training;

import static io.flightdeck.training.TrainingScenario.NOW_MS;
import static io.flightdeck.training.TrainingStore.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCatalogTest {
  @TempDir static Path dir;
  static TrainingStore store;
  static RunCatalog catalog;

  @BeforeAll
  static void write() {
    store = new TrainingStore(dir);
    TrainingScenario.write(store);
    catalog =
        new RunCatalog(
            store.tsdb, new ManualClock(NOW_MS), RunHParams.NONE, RunCatalogOptions.DEFAULT);
  }

  @AfterAll
  static void close() throws Exception {
    store.close();
  }

  private static Map<String, RunSummary> byName() {
    return catalog.runs(null).stream()
        .collect(Collectors.toMap(RunSummary::run, Function.identity()));
  }

  @Test
  void eachRunGetsTheStatusItsSeriesShow() {
    Map<String, RunSummary> runs = byName();
    assertEquals(RunStatus.RUNNING, runs.get("llama").status());
    assertEquals(RunStatus.STALLED, runs.get("stuck").status());
    assertEquals(RunStatus.CRASHED, runs.get("dead").status());
    assertEquals(RunStatus.FINISHED, runs.get("done").status());
    assertEquals(
        RunStatus.FINISHED, runs.get("hf").status(), "its end-of-training summary says so");
    assertEquals(List.of("tensorboard"), runs.get("hf").sources());
    assertEquals(0.0, runs.get("done").etaSeconds());
    assertNull(runs.get("stuck").etaSeconds(), "a stalled run has no ETA");
  }

  @Test
  void theSourceCanDeclareARunFinishedOrFailed() {
    RunHParams declared =
        run ->
            switch (run) {
              case "dead" -> new RunHParams.Declared(null, "STATUS_SUCCESS");
              case "llama" -> new RunHParams.Declared(null, "STATUS_FAILURE");
              default -> RunHParams.Declared.NOTHING;
            };
    RunCatalog withHParams =
        new RunCatalog(store.tsdb, new ManualClock(NOW_MS), declared, RunCatalogOptions.DEFAULT);
    assertEquals(RunStatus.FINISHED, withHParams.run("dead").orElseThrow().status());
    assertEquals(RunStatus.CRASHED, withHParams.run("llama").orElseThrow().status());
    assertEquals(RunStatus.STALLED, withHParams.run("stuck").orElseThrow().status());
  }

  @Test
  void anotherRunLabelNamesOtherRuns() {
    RunCatalog byJob =
        new RunCatalog(
            store.tsdb,
            new ManualClock(NOW_MS),
            RunHParams.NONE,
            RunCatalogOptions.DEFAULT.withRunLabel("job"));
    RunSummary train = byJob.run("train").orElseThrow();
    assertEquals("llm_train_step{job=\"train\"}", train.stepMetric());
    assertTrue(byJob.run("llama").isEmpty());
  }

  @Test
  void runsAreListedMostRecentlySeenFirstAndFilteredByRegex() {
    List<RunSummary> runs = catalog.runs(null);
    assertEquals(7, runs.size());
    assertEquals("dead", runs.get(6).run(), "dead was last seen 30 minutes ago");
    assertEquals(
        List.of("dead", "done"),
        catalog.runs("d.*").stream().map(RunSummary::run).sorted().toList());
    assertThrows(IllegalArgumentException.class, () -> catalog.runs("(unclosed"));
  }

  @Test
  void stepRateAndEtaFollowTheCurrentSegment() {
    RunSummary llama = catalog.run("llama").orElseThrow();
    assertEquals(6600.0, llama.step());
    assertEquals(10000.0, llama.maxSteps());
    assertEquals(2.0, llama.stepsPerSecond(), 1e-9);
    // 3400 steps left at 2 steps/s, 1700 s, were it not for the restart: it went back from step
    // 3570 (its last scrape before) to 3000, 570 steps redone, 285 s lost of the 3600 s since its
    // step first moved; the losses are assumed to go on at that share.
    assertEquals(1700 * 3600 / (3600 - 285.0), llama.etaSeconds(), 1e-6);
    assertTrue(llama.etaLowSeconds() <= llama.etaSeconds());
    assertTrue(llama.etaHighSeconds() >= llama.etaSeconds());
    assertEquals(6.6, llama.epoch(), 1e-9);
    assertEquals(3.0 / 7.6, llama.lastLoss(), 1e-9);
    assertEquals(64.0, llama.lastSamplesPerSecond());
    assertNull(llama.lastLearningRate());
    assertEquals(T0, llama.firstSeenMs());
    assertEquals(NOW_MS, llama.lastSeenMs());
    assertEquals("llm_train_loss{run=\"llama\"}", llama.lossMetric());
    assertEquals("llm_train_step{run=\"llama\"}", llama.stepMetric());
    assertEquals(List.of("scrape"), llama.sources());
  }

  @Test
  void hardwareComesFromHostsAndLocalRanks() {
    RunSummary llama = catalog.run("llama").orElseThrow();
    assertEquals(List.of("node-0", "node-1"), llama.hosts());
    assertEquals(
        List.of(
            new RunGpu("node-0", "0", "GPU-node-0-0"),
            new RunGpu("node-0", "1", "GPU-node-0-1"),
            new RunGpu("node-1", "0", "GPU-node-1-0"),
            new RunGpu("node-1", "1", "GPU-node-1-1")),
        llama.gpus());
  }

  @Test
  void firingAlertsOnTheRunsGpusAreItsOwn() {
    RunSummary llama = catalog.run("llama").orElseThrow();
    assertEquals(1, llama.alerts().size(), llama.alerts().toString());
    RunAlert alert = llama.alerts().get(0);
    assertEquals("GPUXIDCriticalError", alert.alertname());
    assertEquals("critical", alert.severity());
    assertEquals(T0 + TrainingScenario.XID_SECONDS * 1000, alert.activeAtMs());
    assertTrue(catalog.run("stuck").orElseThrow().alerts().isEmpty());
  }

  @Test
  void unknownRunIsEmpty() {
    assertTrue(catalog.run("nope").isEmpty());
    assertTrue(catalog.stepMap("nope", T0, NOW_MS).isEmpty());
    assertTrue(catalog.events("nope", T0, NOW_MS).isEmpty());
  }

  @Test
  void stepMapSplitsAtTheRestartAndIgnoresALaggingRank() {
    StepMap map = catalog.stepMap("llama", T0, NOW_MS).orElseThrow();
    assertEquals(2, map.segments().size());
    StepMap.Segment first = map.segments().get(0);
    StepMap.Segment second = map.segments().get(1);
    assertEquals(3570.0, first.steps()[first.size() - 1]);
    assertEquals(3000.0, second.steps()[0]);
    assertEquals(T0 + TrainingScenario.RESTART_SECONDS * 1000, second.times()[0]);
    for (StepMap.Segment segment : map.segments()) {
      for (int i = 1; i < segment.size(); i++) {
        assertTrue(segment.steps()[i] >= segment.steps()[i - 1], "monotonic");
        assertTrue(segment.times()[i] > segment.times()[i - 1]);
      }
    }
    // Interpolation inside a segment, and the restart's own step after it.
    assertEquals(15.0, map.stepAt(T0 + 7_500), 1e-9);
    assertEquals(3010.0, map.stepAt(T0 + (TrainingScenario.RESTART_SECONDS + 5) * 1000), 1e-9);
  }

  @Test
  void aStallIsTwoPointsAtOneStep() {
    StepMap map = catalog.stepMap("stuck", T0, NOW_MS).orElseThrow();
    StepMap.Segment only = map.segments().get(0);
    int n = only.size();
    assertEquals(1200.0, only.steps()[n - 1]);
    assertEquals(1200.0, only.steps()[n - 2]);
    assertEquals(NOW_MS - T0 - 1_200_000, only.times()[n - 1] - only.times()[n - 2]);
    assertEquals(1200.0, map.stepAt(NOW_MS - 60_000));
  }

  @Test
  void eventsOfAMultiNodeRun() {
    List<RunEvent> events = catalog.events("llama", T0, NOW_MS).orElseThrow();
    Map<String, List<RunEvent>> byKind =
        events.stream().collect(Collectors.groupingBy(RunEvent::kind));
    for (int i = 1; i < events.size(); i++) {
      assertTrue(events.get(i).timeMs() >= events.get(i - 1).timeMs(), "sorted by time");
    }

    RunEvent restart = byKind.get("restart").get(0);
    assertEquals(1, byKind.get("restart").size());
    assertEquals(T0 + 1_800_000, restart.timeMs());
    assertEquals(3000.0, restart.step());
    assertEquals(3570.0, restart.evidence().get("from_step"));

    // Epochs 1, 2, 3 before the restart, then 4, 5, 6 after it (back to 3.0 is no boundary).
    assertEquals(
        List.of("epoch 1", "epoch 2", "epoch 3", "epoch 4", "epoch 5", "epoch 6"),
        byKind.get("epoch").stream().map(RunEvent::title).toList());
    // The first sample past epoch 1 is at 510 s (step 1020): samples are 15 s apart.
    assertEquals(T0 + 510_000, byKind.get("epoch").get(0).timeMs());
    assertEquals(1020.0, byKind.get("epoch").get(0).step());

    RunEvent xid = byKind.get("xid").get(0);
    assertEquals(2, byKind.get("xid").size());
    RunEvent xid79 = byKind.get("xid").get(1);
    assertEquals(79.0, xid79.evidence().get("xid"));
    assertEquals("GPU has fallen off the bus", xid79.evidence().get("err_msg"));
    assertEquals(T0 + 1_200_000, xid.timeMs());
    assertEquals("node-1", xid.host());
    assertEquals("1", xid.gpu());
    assertEquals(13.0, xid.evidence().get("xid"));
    assertEquals(2400.0, xid.step());

    RunEvent alert = byKind.get("alert").get(0);
    assertEquals(1, byKind.get("alert").size(), "node-9's alert is not llama's");
    assertEquals("GPUXIDCriticalError", alert.title());
    assertNull(alert.endMs(), "still firing at the end of the range");

    RunEvent incident = byKind.get("demo_incident").get(0);
    assertEquals(T0 + 1_200_000, incident.timeMs());
    assertEquals(T0 + 1_485_000, incident.endMs());
    assertEquals("XID 13 on node-1", incident.title());
    assertFalse(byKind.containsKey("stall"));

    RunEvent lost = byKind.get("gpu_lost").get(0);
    assertEquals(1, byKind.get("gpu_lost").size(), "XID 79 and the vanished series are one loss");
    assertEquals("GPU lost (XID 79)", lost.title());
    assertEquals(T0 + TrainingScenario.LOST_SECONDS * 1000, lost.timeMs());
    assertEquals("node-0", lost.host());
    assertEquals("1", lost.gpu());
  }

  @Test
  void theEtaBandSpansTheSpreadOfRecentRates() {
    RunSummary jitter = catalog.run("jitter").orElseThrow();
    // 25, 30 and 35 steps per 15 s: a median of 2 steps/s, between 5/3 and 7/3.
    assertEquals(2.0, jitter.stepsPerSecond(), 1e-9);
    double remaining = 100000 - jitter.step();
    assertEquals(remaining / 2.0, jitter.etaSeconds(), 1e-6);
    assertTrue(jitter.etaLowSeconds() < jitter.etaSeconds());
    assertTrue(jitter.etaHighSeconds() > jitter.etaSeconds());
    assertTrue(jitter.etaLowSeconds() >= remaining / (35 / 15.0) - 1e-6);
    assertTrue(jitter.etaHighSeconds() <= remaining / (25 / 15.0) + 1e-6);
  }

  @Test
  void processAttributionComesBeforeTheLocalRank() {
    RunSummary run = catalog.run("attributed").orElseThrow();
    assertEquals(
        List.of(
            new RunGpu("node-5", "2", "GPU-node-5-2"), new RunGpu("node-5", "3", "GPU-node-5-3")),
        run.gpus());
    assertEquals(List.of("node-5"), run.hosts());
  }

  @Test
  void aStalledRunHasAStallEvent() {
    List<RunEvent> events = catalog.events("stuck", T0, NOW_MS).orElseThrow();
    RunEvent stall =
        events.stream().filter(e -> e.kind().equals("stall")).findFirst().orElseThrow();
    assertEquals(T0 + 1_200_000, stall.timeMs());
    assertEquals(NOW_MS, stall.endMs());
    assertEquals(1200.0, stall.step());
  }
}
