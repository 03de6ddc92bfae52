package io.flightdeck.tsdb;

import static io.flightdeck.tsdb.TsdbTesting.NOW;
import static io.flightdeck.tsdb.TsdbTesting.dump;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Appender;
import io.flightdeck.storage.DuplicateSampleException;
import io.flightdeck.storage.OutOfOrderSampleException;
import io.flightdeck.storage.SampleTooFarInFutureException;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.tsdb.block.BlockMeta;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Imports written straight to blocks: every sample lands once, in block-range windows, within the
 * memory bound, whatever its age; nothing goes through the head or the WAL.
 */
class BlockImportTest {
  static final long HOUR = 3_600_000;
  static final long DAY = 24 * HOUR;
  @TempDir Path dir;
  final ManualClock clock = new ManualClock(NOW);
  final Matcher all = Matcher.regex("__name__", ".+");

  static Labels loss(String run) {
    return Labels.of("__name__", "tensorboard_scalar", "run", run, "tag", "loss");
  }

  /** One sample a minute over [from, to) for each run, one run after the other. */
  static void importRuns(BlockImport im, List<String> runs, long from, long to) {
    for (String run : runs) {
      Appender app = im.appender();
      long ref = 0;
      for (long t = from; t < to; t += 60_000) {
        ref = app.append(ref, loss(run), t, t % 7_919);
      }
      app.commit();
    }
  }

  /** What the same samples look like after going through the head. */
  private List<String> throughTheHead(List<String> runs, long from, long to) throws Exception {
    Path other = dir.resolve("head");
    try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(other, clock).withRetention(Duration.ZERO))) {
      for (String run : runs) {
        for (long t = from; t < to; t += 60_000) {
          TsdbTesting.write(tsdb, loss(run), t, t % 7_919);
        }
      }
      return dump(tsdb, all);
    }
  }

  private TsdbOptions options() {
    return TsdbTesting.options(dir.resolve("data"), clock).withRetention(Duration.ZERO);
  }

  @Test
  void everySampleLandsInBlocksOfOneWindowEachAndNothingInTheHead() throws Exception {
    List<String> runs = List.of("a", "b", "c");
    long from = NOW - 10 * HOUR;
    try (Tsdb tsdb = Tsdb.open(options())) {
      long walBefore = tsdb.walSizeBytes();
      BlockImport im = tsdb.blockImport(64 << 20);
      importRuns(im, runs, from, NOW);
      im.finish();

      assertThat(tsdb.head().numSeries()).isZero();
      assertThat(tsdb.walSizeBytes()).isEqualTo(walBefore);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(throughTheHead(runs, from, NOW));
      for (BlockMeta meta : tsdb.blockMetas()) {
        assertThat(meta.maxTime() - meta.minTime()).isEqualTo(2 * HOUR);
        assertThat(meta.minTime() % (2 * HOUR)).isZero();
      }
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(3 * 600);
    }
  }

  /**
   * Thousands of samples per window, in chunks of the blocks' size: those the decimal encoding
   * declines are written as the import buffered them, and read back bit for bit.
   */
  @Test
  void fullChunksOfAnyValueReadBackAsThroughTheHead() throws Exception {
    long from = NOW - 5 * HOUR;
    Labels bits = Labels.of("__name__", "weights", "run", "a");
    Labels steps = Labels.of("__name__", "steps", "run", "a");
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender app = im.appender();
      long bitsRef = 0;
      long stepsRef = 0;
      for (long t = from; t < NOW; t += 1_000) {
        // Float-like values (not short decimals: XOR) and integers (decimal), NaN now and then.
        double v = t % 977 == 0 ? Double.NaN : (float) Math.sqrt(t - from);
        bitsRef = app.append(bitsRef, bits, t, v);
        stepsRef = app.append(stepsRef, steps, t, (t - from) / 1_000);
      }
      app.commit();
      im.finish();
      List<String> imported = dump(tsdb, all);

      Path other = dir.resolve("head");
      try (Tsdb head = Tsdb.open(TsdbTesting.options(other, clock))) {
        Appender direct = head.appender();
        for (long t = from; t < NOW; t += 1_000) {
          direct.append(0, bits, t, t % 977 == 0 ? Double.NaN : (float) Math.sqrt(t - from));
          direct.append(0, steps, t, (t - from) / 1_000);
        }
        direct.commit();
        assertThat(imported).hasSize(2 * 5 * 3_600).isEqualTo(dump(head, all));
      }
    }
  }

  /**
   * A series left idle for a few commits has its open chunk encoded early; samples it gets later in
   * the same window go to a new chunk, and every sample reads back as through the head.
   */
  @Test
  void aSeriesThatGoesIdleAndComesBackKeepsEverySample() throws Exception {
    long from = NOW - 4 * HOUR;
    Labels a = loss("a");
    Labels b = loss("b");
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      long t = from;
      appendSteps(im, a, t, 500);
      long withOpenChunk = im.bufferedBytes();
      for (int commit = 0; commit <= ImportLane.IDLE_COMMITS; commit++) {
        appendSteps(im, b, t + commit * 10_000L, 10);
      }
      assertThat(im.bufferedBytes())
          .as("a's 500 samples no longer held as they came")
          .isLessThan(withOpenChunk);
      appendSteps(im, a, t + 500_000, 500);
      im.finish();

      Path other = dir.resolve("head");
      try (Tsdb head = Tsdb.open(TsdbTesting.options(other, clock))) {
        Appender direct = head.appender();
        for (long i = 0; i < 1_000; i++) {
          direct.append(0, a, from + i * 1_000, value(i));
        }
        for (long i = 0; i < 10 * (ImportLane.IDLE_COMMITS + 1); i++) {
          direct.append(0, b, from + i * 1_000, value(i));
        }
        direct.commit();
        assertThat(dump(tsdb, all))
            .hasSize(1_000 + 10 * (ImportLane.IDLE_COMMITS + 1))
            .isEqualTo(dump(head, all));
      }
    }
  }

  /** Short decimals (decimal chunks) and float-like values (XOR chunks) in turn. */
  private static double value(long i) {
    return i % 400 < 200 ? i % 17 : (float) Math.sqrt(i);
  }

  /** Commits {@code n} samples of one series, a second apart from {@code from}. */
  private static void appendSteps(BlockImport im, Labels series, long from, int n) {
    Appender app = im.appender();
    long ref = 0;
    long first = (from - (NOW - 4 * HOUR)) / 1_000;
    for (int i = 0; i < n; i++) {
      ref = app.append(ref, series, from + i * 1_000L, value(first + i));
    }
    app.commit();
  }

  @Test
  void aSmallBoundFlushesOftenAndStoresEverySampleOnce() throws Exception {
    List<String> runs = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      runs.add("run-" + i);
    }
    long from = NOW - 10 * HOUR;
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(4 << 10);
      importRuns(im, runs, from, NOW);
      assertThat(im.bufferedBytes()).isLessThanOrEqualTo(4 << 10);
      im.finish();

      assertThat(im.blocksWritten()).as("several flushes of 5 windows each").isGreaterThan(10);
      // The flushes' blocks overlap but split the samples: the server's compaction merges them.
      assertThat(tsdb.blockMetas()).hasSize((int) im.blocksWritten());
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(20 * 600);
      List<String> expected = throughTheHead(runs, from, NOW);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
      tsdb.compact();
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(20 * 600);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void importingTheSameSamplesTwiceWithASmallBoundStoresThemOnce() throws Exception {
    List<String> runs = List.of("a", "b", "c", "d");
    long from = NOW - 5 * HOUR;
    for (int pass = 0; pass < 2; pass++) {
      try (Tsdb tsdb = Tsdb.open(options())) {
        BlockImport im = tsdb.blockImport(2 << 10);
        importRuns(im, runs, from, NOW);
        im.finish();
      }
    }
    try (Tsdb tsdb = Tsdb.open(options())) {
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(4 * 300);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(throughTheHead(runs, from, NOW));
    }
  }

  /** {@link #importRuns} of each list of runs on a thread of its own, all at once. */
  static void importRunsOnThreads(
      BlockImport im, List<List<String>> runsByThread, long from, long to) throws Exception {
    CyclicBarrier start = new CyclicBarrier(runsByThread.size());
    List<CompletableFuture<Void>> threads = new ArrayList<>();
    for (List<String> runs : runsByThread) {
      threads.add(
          CompletableFuture.runAsync(
              () -> {
                try {
                  start.await();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
                importRuns(im, runs, from, to);
              },
              command -> new Thread(command).start()));
    }
    CompletableFuture.allOf(threads.toArray(CompletableFuture[]::new)).get(1, TimeUnit.MINUTES);
  }

  @Test
  void threadsAppendingAtOnceShareTheBoundAndStoreEverySampleOnce() throws Exception {
    List<List<String>> runsByThread = new ArrayList<>();
    List<String> runs = new ArrayList<>();
    for (int thread = 0; thread < 4; thread++) {
      List<String> own = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        own.add("run-" + thread + "-" + i);
      }
      runsByThread.add(own);
      runs.addAll(own);
    }
    long from = NOW - 10 * HOUR;
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(16 << 10);
      importRunsOnThreads(im, runsByThread, from, NOW);
      assertThat(im.bufferedBytes()).isLessThanOrEqualTo(16 << 10);
      im.finish();

      // A lane past its share of the bound writes blocks of its own: several per window.
      assertThat(im.blocksWritten()).isGreaterThan(2 * 5);
      assertThat(tsdb.blockMetas()).hasSize((int) im.blocksWritten());
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(20 * 600);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(throughTheHead(runs, from, NOW));
    }
  }

  @Test
  void theLanesLeftAtTheEndAreWrittenAsOneBlockPerWindow() throws Exception {
    List<List<String>> runsByThread = List.of(List.of("a", "b"), List.of("c", "d"));
    long from = NOW - 10 * HOUR;
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      importRunsOnThreads(im, runsByThread, from, NOW);
      im.finish();

      assertThat(tsdb.blockMetas()).hasSize(5);
      assertThat(tsdb.blockMetas()).allSatisfy(meta -> assertThat(meta.numSeries()).isEqualTo(4));
      assertThat(dump(tsdb, all))
          .containsExactlyElementsOf(throughTheHead(List.of("a", "b", "c", "d"), from, NOW));
    }
  }

  @Test
  void aSeriesAppendedFromTwoThreadsIsRefused() throws Exception {
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      importRuns(im, List.of("a"), NOW - HOUR, NOW);

      assertThatThrownBy(
              () -> {
                try {
                  importRunsOnThreads(im, List.of(List.of("a")), NOW, NOW + 60_000);
                } catch (ExecutionException e) {
                  throw e.getCause();
                }
              })
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("run=\"a\"")
          .hasMessageEndingWith("was appended to a block import from two threads");
    }
  }

  @Test
  void importingTheSameSamplesTwiceOnSeveralThreadsStoresThemOnce() throws Exception {
    List<List<String>> runsByThread = List.of(List.of("a", "b"), List.of("c"), List.of("d", "e"));
    long from = NOW - 5 * HOUR;
    for (int pass = 0; pass < 2; pass++) {
      try (Tsdb tsdb = Tsdb.open(options())) {
        BlockImport im = tsdb.blockImport(64 << 20);
        importRunsOnThreads(im, runsByThread, from, NOW);
        im.finish();
      }
    }
    try (Tsdb tsdb = Tsdb.open(options())) {
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(5 * 300);
      assertThat(dump(tsdb, all))
          .containsExactlyElementsOf(throughTheHead(List.of("a", "b", "c", "d", "e"), from, NOW));
    }
  }

  @Test
  void eachThreadHasOneAppenderAtATimeAndNothingIsWrittenWhileOneIsOpen() throws Exception {
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender mine = im.appender();
      mine.append(0, loss("a"), NOW - HOUR, 1);
      Appender other = CompletableFuture.supplyAsync(im::appender).get(1, TimeUnit.MINUTES);

      assertThatThrownBy(im::appender)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("a block import takes one appender at a time per thread");
      mine.commit();
      assertThatThrownBy(im::finish)
          .as("the other thread's appender is open")
          .isInstanceOf(IllegalStateException.class)
          .hasMessage("an appender of the import is still open");
      other.rollback();
      im.finish();
      assertThat(dump(tsdb, all)).hasSize(1);
    }
  }

  @Test
  void importingTheSameSamplesTwiceStoresThemOnce() throws Exception {
    List<String> runs = List.of("a", "b");
    long from = NOW - 5 * HOUR;
    for (int pass = 0; pass < 2; pass++) {
      try (Tsdb tsdb = Tsdb.open(options())) {
        BlockImport im = tsdb.blockImport(64 << 20);
        importRuns(im, runs, from, NOW);
        im.finish();
      }
    }
    try (Tsdb tsdb = Tsdb.open(options())) {
      assertThat(tsdb.blockMetas().stream().mapToLong(BlockMeta::numSamples).sum())
          .isEqualTo(2 * 300);
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(throughTheHead(runs, from, NOW));
    }
  }

  @Test
  void samplesOlderThanTheHeadAreTakenAsTheyAre() throws Exception {
    long old = NOW - 400 * DAY;
    try (Tsdb tsdb = Tsdb.open(options())) {
      TsdbTesting.write(tsdb, loss("old"), NOW, 1);
      Appender head = tsdb.appender();
      assertThatThrownBy(() -> head.append(0, loss("old"), old, 1))
          .as("the head refuses it")
          .isInstanceOf(OutOfOrderSampleException.class);
      head.rollback();
      BlockImport im = tsdb.blockImport(64 << 20);
      importRuns(im, List.of("old"), old, old + 3 * HOUR);
      im.finish();

      assertThat(dump(tsdb, Matcher.equal("run", "old"))).hasSize(181);
      assertThat(tsdb.blockMetas().getFirst().minTime()).isLessThanOrEqualTo(old);
    }
  }

  @Test
  void orderAndFutureAreCheckedAsByTheHeadAndRefusedSamplesLeaveTheBatchUsable() throws Exception {
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender app = im.appender();
      long ref = app.append(0, loss("a"), NOW - 2_000, 1);
      assertThat(app.append(ref, loss("a"), NOW - 2_000, 1))
          .as("a same-value repeat")
          .isEqualTo(ref);
      assertThatThrownBy(() -> app.append(ref, loss("a"), NOW - 2_000, 2))
          .isInstanceOf(DuplicateSampleException.class);
      assertThatThrownBy(() -> app.append(ref, loss("a"), NOW - 3_000, 2))
          .isInstanceOf(OutOfOrderSampleException.class);
      assertThatThrownBy(() -> app.append(ref, loss("a"), NOW + 3_600_000, 2))
          .isInstanceOf(SampleTooFarInFutureException.class);
      app.append(ref, loss("a"), NOW - 1_000, 3);
      app.commit();
      Appender next = im.appender();
      assertThatThrownBy(() -> next.append(0, loss("a"), NOW - 1_500, 4))
          .as("order holds across batches")
          .isInstanceOf(OutOfOrderSampleException.class);
      next.rollback();
      im.finish();

      assertThat(dump(tsdb, all))
          .containsExactly(
              loss("a") + "@" + (NOW - 2_000) + "=1.0", loss("a") + "@" + (NOW - 1_000) + "=3.0");
    }
  }

  /**
   * Samples at one time to several series at once are checked as one by one, the refused ones
   * counted instead of thrown, and the rest taken; the head's appender does the same by default.
   */
  @Test
  void appendAllTakesWhatAppendTakesAndCountsWhatItRefuses() throws Exception {
    for (boolean head : new boolean[] {false, true}) {
      Path data = dir.resolve(head ? "head-all" : "import-all");
      try (Tsdb tsdb = Tsdb.open(TsdbTesting.options(data, clock))) {
        BlockImport im = head ? null : tsdb.blockImport(64 << 20);
        Appender app = head ? tsdb.appender() : im.appender();
        long refB = app.append(0, loss("b"), NOW - 2_000, 7);
        app.append(0, loss("c"), NOW - 1_000, 1);
        long[] refs = {0, refB, 0, 0};
        Labels[] labels = {loss("a"), loss("b"), loss("c"), loss("d")};
        // b repeats its sample (taken, a no-op); c already has a newer one (refused).
        assertThat(app.appendAll(refs, labels, NOW - 2_000, new double[] {1, 7, 2, 4}, 4))
            .isEqualTo(1);
        assertThat(refs[0]).isNotZero();
        assertThat(refs[1]).isEqualTo(refB);
        assertThat(refs[2]).as("left as it was").isZero();
        assertThat(app.appendAll(refs, labels, NOW - 1_500, new double[] {5, 9, 9, 6}, 4))
            .isEqualTo(1);
        // a and d repeat theirs; b has another value at that time and c a newer sample.
        assertThat(app.appendAll(refs, labels, NOW - 1_500, new double[] {5, 10, 9, 6}, 4))
            .isEqualTo(2);
        assertThat(app.appendAll(refs, labels, NOW + 3_600_000, new double[] {1, 1, 1, 1}, 4))
            .as("too far in the future, every one")
            .isEqualTo(4);
        app.commit();
        if (im != null) {
          im.finish();
        }
        assertThat(dump(tsdb, all))
            .as(head ? "through the head" : "through the import")
            .containsExactly(
                loss("a") + "@" + (NOW - 2_000) + "=1.0",
                loss("a") + "@" + (NOW - 1_500) + "=5.0",
                loss("b") + "@" + (NOW - 2_000) + "=7.0",
                loss("b") + "@" + (NOW - 1_500) + "=9.0",
                loss("c") + "@" + (NOW - 1_000) + "=1.0",
                loss("d") + "@" + (NOW - 2_000) + "=4.0",
                loss("d") + "@" + (NOW - 1_500) + "=6.0");
      }
    }
  }

  @Test
  void aRolledBackBatchLeavesNothing() throws Exception {
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender app = im.appender();
      app.append(0, loss("a"), NOW - 2_000, 1);
      app.rollback();
      Appender again = im.appender();
      again.append(0, loss("a"), NOW - 2_000, 5);
      again.commit();
      im.finish();

      assertThat(dump(tsdb, all)).containsExactly(loss("a") + "@" + (NOW - 2_000) + "=5.0");
    }
  }

  /**
   * Pending samples go straight into their series' open chunk: a rollback after they filled chunks
   * and crossed into the next block window leaves exactly the committed samples.
   */
  @Test
  void aRolledBackBatchThatFilledChunksAndCrossedAWindowLeavesTheCommittedSamples()
      throws Exception {
    long from = NOW - 10 * HOUR;
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender first = im.appender();
      long ref = 0;
      for (int i = 0; i < 700; i++) {
        ref = first.append(ref, loss("a"), from + i * 1_000L, i);
      }
      first.commit();
      Appender undone = im.appender();
      for (int i = 700; i < 700 + 3 * 3_600; i++) {
        undone.append(ref, loss("a"), from + i * 1_000L, -i);
      }
      undone.rollback();
      Appender last = im.appender();
      last.append(ref, loss("a"), from + 700_000L, 700);
      last.commit();
      im.finish();

      List<String> expected = new ArrayList<>();
      for (int i = 0; i <= 700; i++) {
        expected.add(loss("a") + "@" + (from + i * 1_000L) + "=" + (double) i);
      }
      assertThat(dump(tsdb, all)).containsExactlyElementsOf(expected);
    }
  }

  @Test
  void oneAppenderAtATime() throws Exception {
    try (Tsdb tsdb = Tsdb.open(options())) {
      BlockImport im = tsdb.blockImport(64 << 20);
      Appender app = im.appender();
      assertThatThrownBy(im::appender).isInstanceOf(IllegalStateException.class);
      app.commit();
      im.finish();
      assertThatThrownBy(im::appender).isInstanceOf(IllegalStateException.class);
    }
  }
}
