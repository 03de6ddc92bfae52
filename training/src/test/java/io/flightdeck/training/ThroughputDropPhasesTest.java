package io.flightdeck.training;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.flightdeck.testkit.ManualClock;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code throughput_drop} on ranks scraped at spread phases, as Prometheus spreads its targets: the
 * drop is named once half the ranks have shown it in two samples each, about one and a half scrapes
 * after its onset wherever the onset falls between the first rank's scrapes (judged only at the
 * first rank's samples, it took up to two more of them: 41 s at 20 s scrapes), and a dip of one
 * scrape in every rank is never a drop.
 */
class ThroughputDropPhasesTest {
  private static final long EVERY = 20;
  private static final long[] OFFSETS = {0, 2, 5, 7, 10, 12, 15, 17};
  private static final long END = 7200;
  private static final long DROP_FOR = 1200;

  @TempDir static Path dir;
  static TrainingStore store;
  static RunCatalog catalog;

  @BeforeAll
  static void write() {
    store = new TrainingStore(dir);
    for (long onset : new long[] {3601, 3609, 3619}) {
      writeRun("drop-" + onset, s -> s >= onset && s < onset + DROP_FOR ? 2.0 : 7.5);
    }
    // Every rank's one sample in [3610, 3630) is low: a checkpoint's pause, one scrape long.
    writeRun("blip", s -> s >= 3610 && s < 3630 ? 2.0 : 7.5);
    catalog =
        new RunCatalog(
            store.tsdb,
            new ManualClock(TrainingStore.T0 + END * 1000),
            RunHParams.NONE,
            RunCatalogOptions.DEFAULT);
  }

  @AfterAll
  static void close() throws Exception {
    store.close();
  }

  private static void writeRun(
      String run, java.util.function.LongToDoubleFunction samplesPerSecond) {
    for (int rank = 0; rank < OFFSETS.length; rank++) {
      String[] id = {
        "run",
        run,
        "job",
        run,
        "instance",
        "node-" + rank / 4 + ":80" + (80 + rank % 4),
        "Hostname",
        "node-" + rank / 4,
        "rank",
        "" + rank,
        "local_rank",
        "" + rank % 4
      };
      long offset = OFFSETS[rank];
      // A little noise per rank and sample, as real gauges have.
      long seed = rank * 7919L;
      store.series(
          TrainingStore.labels(with(id, "llm_train_step")), offset, END, EVERY, s -> s / 2);
      store.series(
          TrainingStore.labels(with(id, "llm_train_loss")),
          offset,
          END,
          EVERY,
          s -> 2.0 - s / 10_000.0);
      store.series(
          TrainingStore.labels(with(id, "llm_train_samples_per_second")),
          offset,
          END,
          EVERY,
          s -> samplesPerSecond.applyAsDouble(s) * (1 + 0.01 * Math.sin(s * 0.37 + seed)));
    }
  }

  private static String[] with(String[] id, String name) {
    String[] all = java.util.Arrays.copyOf(id, id.length + 2);
    all[id.length] = "__name__";
    all[id.length + 1] = name;
    return all;
  }

  /**
   * The throughput drops of a run as a pass whose range ends {@code seconds} after T0 sees them.
   */
  private static List<RunEvent> dropsSeenAt(String run, long seconds) {
    return catalog
        .events(run, TrainingStore.T0 + 1800_000, TrainingStore.T0 + seconds * 1000)
        .orElseThrow()
        .stream()
        .filter(e -> e.kind().equals("throughput_drop"))
        .toList();
  }

  @ParameterizedTest
  @ValueSource(longs = {3601, 3609, 3619})
  void aDropIsNamedAboutAScrapeAndAQuarterAfterItsOnsetWhereverItFalls(long onset) {
    String run = "drop-" + onset;
    long seen = -1;
    for (long now = onset; now <= onset + 3 * EVERY; now++) {
      if (!dropsSeenAt(run, now).isEmpty()) {
        seen = now;
        break;
      }
    }
    assertTrue(seen > 0, "no drop within three scrapes of " + onset);
    long delay = seen - onset;
    assertTrue(
        delay > EVERY && delay <= EVERY + EVERY / 4 + 3,
        "named "
            + delay
            + " s after the onset; two samples a rank need more than a scrape, a quarter"
            + " of the ranks at spread phases about a quarter of a scrape more");
    System.out.println("onset " + onset + ": named " + delay + " s after");
    RunEvent drop = dropsSeenAt(run, END).getFirst();
    long began = (drop.timeMs() - TrainingStore.T0) / 1000;
    assertTrue(
        began >= onset && began <= onset + EVERY,
        "it began at " + began + ", when half the ranks showed it, within a scrape of " + onset);
    assertEquals(
        (double) onset + DROP_FOR,
        (drop.endMs() - TrainingStore.T0) / 1000.0,
        EVERY,
        "it ended when half the ranks were back");
  }

  @Test
  void aDipOfOneScrapeInEveryRankIsNoDrop() {
    for (long now = 3610; now <= 3700; now += 3) {
      assertEquals(List.of(), dropsSeenAt("blip", now), "range ending " + now);
    }
    assertEquals(List.of(), dropsSeenAt("blip", END));
  }
}
