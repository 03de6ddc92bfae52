package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.model.StaleMarker;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background loop over a real TSDB: a hung GPU in a running job becomes a {@code
 * flightdeck_run_detection} series naming the run, host and GPU while the hang lasts and goes stale
 * after; a healthy job beside it gets none; the events endpoint's answer from the loop's cache is
 * the one computed on demand; a new evaluation interval (a reloaded configuration) is followed.
 */
class DetectionLoopTest {
  private static final long HOURS_2 = 2 * 3600;
  private static final long HANG_FROM = 3600;
  private static final long HANG_TO = 4800;

  @TempDir static Path dir;
  static TrainingStore store;

  @BeforeAll
  static void write() {
    store = new TrainingStore(dir);
    new SimulatedRun("hung", 2, 4, 15, HOURS_2, 7, RunDetectorsTest.hang(1, 2, HANG_FROM, HANG_TO))
        .write(store);
    new SimulatedRun("healthy", 2, 4, 15, HOURS_2, 8, new SimulatedRun.Faults()).write(store);
  }

  @AfterAll
  static void close() throws java.io.IOException {
    store.close();
  }

  private static long at(long seconds) {
    return TrainingStore.T0 + seconds * 1000;
  }

  private record Loop(ManualClock clock, RunCatalog catalog, DetectionLoop loop) {}

  private static Loop loopAt(long seconds) {
    ManualClock clock = new ManualClock(at(seconds));
    RunCatalog catalog =
        new RunCatalog(store.tsdb, clock, RunHParams.NONE, RunCatalogOptions.DEFAULT);
    return new Loop(
        clock, catalog, new DetectionLoop(catalog, store.tsdb, clock, Duration.ofSeconds(15)));
  }

  /** The last sample of each detection series at {@code t} (NaN for a staleness marker). */
  private static Map<Labels, Double> detectionsAt(long t) {
    Map<Labels, Double> found = new TreeMap<>();
    try (Querier q = store.tsdb.querier(t, t)) {
      SeriesSet set = q.select(false, Matcher.equal(Labels.METRIC_NAME, DetectionLoop.METRIC));
      while (set.next()) {
        SampleIterator it = set.at().iterator(null);
        while (it.next()) {
          if (it.timestamp() == t) {
            found.put(set.at().labels(), it.value());
          }
        }
      }
    }
    return found;
  }

  @Test
  void overlappingAlertsOrIncidentsOfOtherNamesAreOtherIncidentsButADetectorsMovingTitleIsNot() {
    RunEvent stalled = event("alert", 1_000, null, "TrainingStalled");
    RunEvent nan = event("alert", 2_000, 9_000L, "TrainingLossNotFinite");
    assertFalse(DetectionLoop.sameIncident(nan, stalled), "two alerts firing together");
    assertFalse(
        DetectionLoop.sameIncident(
            new RunEvent(
                "alert",
                2_000,
                9_000L,
                null,
                null,
                null,
                "TrainingLossNotFinite",
                Map.of("rank", "3"),
                Map.of()),
            new RunEvent(
                "alert",
                2_000,
                null,
                null,
                null,
                null,
                "TrainingLossNotFinite",
                Map.of("rank", "4"),
                Map.of())),
        "one alert of two ranks");
    assertTrue(
        DetectionLoop.sameIncident(nan, event("alert", 2_000, null, "TrainingLossNotFinite")));
    assertFalse(
        DetectionLoop.sameIncident(
            event("demo_incident", 0, 60_000L, "NaN loss"),
            event("demo_incident", 30_000, null, "hot GPU")));
    assertTrue(
        DetectionLoop.sameIncident(
            event("throughput_drop", 5_000, null, "throughput at 35% of baseline"),
            event("throughput_drop", 5_000, null, "throughput at 33% of baseline")),
        "a detector's title carries values that move between passes");
  }

  private static RunEvent event(String kind, long timeMs, Long endMs, String title) {
    return new RunEvent(kind, timeMs, endMs, null, null, null, title, Map.of(), Map.of());
  }

  @Test
  void aHungGpuIsASeriesWhileItHangsAndStaleAfterAndAHealthyRunHasNone() {
    Loop loop = loopAt(HANG_FROM + 600);
    loop.loop().pass();
    Map<Labels, Double> during = detectionsAt(at(HANG_FROM + 600));
    List<Labels> hung =
        during.keySet().stream().filter(l -> "hung_rank".equals(l.get("kind"))).toList();
    assertEquals(1, hung.size(), during.toString());
    Labels series = hung.get(0);
    assertEquals("hung", series.get("run"));
    assertEquals("hung-node-1", series.get("Hostname"));
    assertEquals("2", series.get("gpu"));
    assertTrue(series.get("title").contains("GPU 2"), series.toString());
    assertEquals(1.0, during.get(series));
    assertTrue(
        during.keySet().stream().noneMatch(l -> "healthy".equals(l.get("run"))), during.toString());

    // The hang ended 20 minutes ago: the series gets a staleness marker at the next pass.
    loop.clock().set(at(HANG_TO + 1200));
    loop.loop().pass();
    Map<Labels, Double> after = detectionsAt(at(HANG_TO + 1200));
    assertTrue(StaleMarker.is(after.get(series)), after.toString());
    assertTrue(
        after.entrySet().stream()
            .filter(e -> !StaleMarker.is(e.getValue()))
            .noneMatch(e -> "hung_rank".equals(e.getKey().get("kind"))),
        after.toString());
  }

  @Test
  void aNewEvaluationIntervalIsFollowedFromTheNextPass() throws InterruptedException {
    Loop loop = loopAt(HANG_FROM + 600);
    try (DetectionLoop slow =
        new DetectionLoop(loop.catalog(), store.tsdb, loop.clock(), Duration.ofHours(1))) {
      slow.start();
      awaitPasses(slow, 1);
      // An hour to the next pass at the interval it began with; a reload shortens it.
      slow.setInterval(Duration.ofMillis(100));
      assertEquals(Duration.ofMillis(100), slow.interval());
      awaitPasses(slow, 3);
      assertThrows(IllegalArgumentException.class, () -> slow.setInterval(Duration.ZERO));
      assertEquals(Duration.ofMillis(100), slow.interval());
    }
  }

  @Test
  void passesStartAQuarterIntervalApartUnlessTheDutyCycleAsksForMore() {
    // Four passes an evaluation interval: a sample waits a quarter of one for the pass that reads
    // it.
    assertEquals(250, DetectionLoop.cadence(1000));
    assertEquals(5000, DetectionLoop.cadence(20_000));
    assertEquals(1, DetectionLoop.cadence(2));
    // A pass of 50 ms: the next starts 250 ms after it began, not after it ended (its own time
    // was added to the wait for new data).
    assertEquals(250, DetectionLoop.spacing(250, 50));
    assertEquals(250, DetectionLoop.spacing(250, 0));
    // Longer passes: three times as long again after it ended, so a quarter of a core at most.
    assertEquals(400, DetectionLoop.spacing(250, 100));
    assertEquals(1600, DetectionLoop.spacing(250, 400));
    assertEquals(20_000, DetectionLoop.spacing(250, 5000));
  }

  @Test
  void everyPassReadsEveryRunningRunWhetherOrNotItsOwnSeriesMoved() {
    // Samples every 15 s, passes every 15 s of a 60 s interval.
    ManualClock clock = new ManualClock(at(1800));
    RunCatalog catalog =
        new RunCatalog(store.tsdb, clock, RunHParams.NONE, RunCatalogOptions.DEFAULT);
    DetectionLoop loop = new DetectionLoop(catalog, store.tsdb, clock, Duration.ofMinutes(1));
    loop.pass();
    assertEquals(2, loop.lastPassRuns());
    // No sample of the runs since the last pass: a GPU's may show a hang.
    clock.set(at(1805));
    loop.pass();
    assertEquals(2, loop.lastPassRuns());
    // The runs' series stopped (their last samples are at 7200 s), as a crashed job's do.
    clock.set(at(HOURS_2 + 45));
    loop.pass();
    assertEquals(2, loop.lastPassRuns());
  }

  /** Waits (at most 30 s, polling) until the loop has run {@code n} background passes. */
  private static void awaitPasses(DetectionLoop loop, long n) throws InterruptedException {
    for (int i = 0; i < 300 && loop.passes() < n; i++) {
      Thread.sleep(100);
    }
    assertTrue(loop.passes() >= n, loop.passes() + " passes, not " + n);
  }

  @Test
  void theCachedEventsAreThoseComputedOnDemand() {
    // Watched from its start: every pass covers the run so far.
    Loop loop = loopAt(1800);
    for (long s = 1800; s <= HANG_FROM + 900; s += 300) {
      loop.clock().set(at(s));
      loop.loop().pass();
    }
    long end = at(HANG_FROM + 900);
    long began = System.nanoTime();
    List<RunEvent> cached = loop.loop().events("hung", TrainingStore.T0, end).orElseThrow();
    long cachedNanos = System.nanoTime() - began;
    began = System.nanoTime();
    List<RunEvent> computed = loop.catalog().events("hung", TrainingStore.T0, end).orElseThrow();
    System.out.printf(
        "events of 8 ranks over 75 min: %.2f ms from the cache, %.0f ms computed%n",
        cachedNanos / 1e6, (System.nanoTime() - began) / 1e6);
    assertEquals(kindsAndTimes(computed), kindsAndTimes(cached));
    assertTrue(cached.stream().anyMatch(e -> e.kind().equals("hung_rank")), cached.toString());
    assertTrue(loop.loop().covers("hung", TrainingStore.T0, end));
  }

  @Test
  void aRangeBeforeTheCacheIsComputedAndThenCached() {
    // The loop starts long after the run: its first pass reads only the last hour.
    Loop loop = loopAt(HOURS_2 - 60);
    loop.loop().pass();
    long end = at(HOURS_2 - 60);
    assertFalse(loop.loop().covers("healthy", TrainingStore.T0, end));
    assertTrue(loop.loop().covers("healthy", end - 1800_000, end));
    List<RunEvent> whole = loop.loop().events("healthy", TrainingStore.T0, end).orElseThrow();
    assertEquals(
        kindsAndTimes(loop.catalog().events("healthy", TrainingStore.T0, end).orElseThrow()),
        kindsAndTimes(whole));
    assertTrue(whole.stream().anyMatch(e -> e.timeMs() < end - 3600_000), whole.toString());
    // Asked again, the answer is the cache's, and the same.
    assertTrue(loop.loop().covers("healthy", TrainingStore.T0, end));
    assertEquals(
        kindsAndTimes(whole),
        kindsAndTimes(loop.loop().events("healthy", TrainingStore.T0, end).orElseThrow()));
  }

  @Test
  void aRunThatStoppedIsCoveredWhateverTheEndAsked() {
    Loop loop = loopAt(HOURS_2 - 600);
    loop.loop().pass();
    assertFalse(loop.loop().covers("healthy", at(HOURS_2 - 1800), at(HOURS_2 + 3600)));
    // Ten minutes after its last sample the run is crashed: one last pass, then any end.
    loop.clock().set(at(HOURS_2 + 600));
    loop.loop().pass();
    assertTrue(loop.loop().covers("healthy", at(HOURS_2 - 1800), at(HOURS_2 + 3600)));
    assertEquals(
        kindsAndTimes(
            loop.catalog().events("healthy", at(HOURS_2 - 1800), at(HOURS_2 + 3600)).orElseThrow()),
        kindsAndTimes(
            loop.loop().events("healthy", at(HOURS_2 - 1800), at(HOURS_2 + 3600)).orElseThrow()));
  }

  @Test
  void aRunThatStoppedBeforeTheLoopWatchedItIsReadOnceAndAgainAfterItsTimeToLive() {
    // The server started ten minutes after the run's last sample: no pass ever read the run.
    Loop loop = loopAt(HOURS_2 + 600);
    assertEquals(
        RunStatus.CRASHED, loop.catalog().run("hung").orElseThrow().status(), "the run stopped");
    long end = at(HOURS_2 + 600);
    List<RunEvent> first = loop.loop().events("hung", TrainingStore.T0, end).orElseThrow();
    assertEquals(
        kindsAndTimes(loop.catalog().events("hung", TrainingStore.T0, end).orElseThrow()),
        kindsAndTimes(first));
    RunEvent hang =
        first.stream().filter(e -> e.kind().equals("hung_rank")).findFirst().orElseThrow();
    // A narrower range of the same run: the same event objects, so nothing was read again.
    List<RunEvent> narrow =
        loop.loop().events("hung", at(HANG_FROM - 600), at(HANG_TO)).orElseThrow();
    assertTrue(narrow.stream().anyMatch(e -> e == hang), narrow.toString());
    assertFalse(
        narrow.stream().anyMatch(e -> e.timeMs() > at(HANG_TO) || endOf(e) < at(HANG_FROM - 600)),
        "only the events that overlap the range asked: " + narrow);
    // Past the time to live (alerts may end after the run), the run is read again.
    loop.clock().set(end + StoppedRunEvents.TTL_MS + 1);
    List<RunEvent> later = loop.loop().events("hung", TrainingStore.T0, end).orElseThrow();
    assertEquals(kindsAndTimes(first), kindsAndTimes(later));
    assertTrue(later.stream().noneMatch(e -> e == hang), "read again, not the kept objects");
    assertTrue(loop.loop().events("nosuchrun", TrainingStore.T0, end).isEmpty());
  }

  private static long endOf(RunEvent e) {
    return e.endMs() == null ? e.timeMs() : e.endMs();
  }

  private static List<String> kindsAndTimes(List<RunEvent> events) {
    List<String> out = new ArrayList<>();
    for (RunEvent e : events) {
      out.add(e.kind() + "@" + (e.timeMs() - TrainingStore.T0) / 1000 + "-" + e.endMs());
    }
    return out;
  }
}
