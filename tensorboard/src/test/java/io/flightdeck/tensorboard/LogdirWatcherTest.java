package io.flightdeck.tensorboard;

import static io.flightdeck.tensorboard.TfEvents.concat;
import static io.flightdeck.tensorboard.TfEvents.scalar;
import static io.flightdeck.tensorboard.TfEvents.text;
import static io.flightdeck.tensorboard.TfEvents.version;
import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.model.Labels;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.StorageUnavailableException;
import io.flightdeck.testkit.ManualClock;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LogdirWatcherTest {
  private static final String FILE_1 = "events.out.tfevents.1700000000.host.1.0";
  private static final String FILE_2 = "events.out.tfevents.1700000500.host.2.0";

  @TempDir Path logdir;
  @TempDir Path dataDir;

  private final RecordingAppendable storage = new RecordingAppendable();
  private final ManualClock clock = new ManualClock(5_000);
  private final List<String> problems = new CopyOnWriteArrayList<>();
  private FileTextStore texts;
  private LogdirWatcher watcher;

  @BeforeEach
  void open() {
    texts = FileTextStore.open(dataDir, logdir.toString());
    watcher = newWatcher(Duration.ofSeconds(1));
  }

  @AfterEach
  void close() {
    watcher.close();
    texts.close();
  }

  @Test
  void appendedRecordsAreReadOnTheNextPoll() throws IOException {
    Path file =
        Records.write(
            logdir, FILE_1, concat(version(), scalar("loss", 0, 0, 3f), scalar("loss", 1, 1, 2f)));
    watcher.pollOnce();
    assertThat(scalars(".", "loss")).containsExactly(3.0, 2.0);

    Records.append(file, scalar("loss", 2, 2, 1f));
    clock.advance(Duration.ofSeconds(1));
    watcher.pollOnce();

    assertThat(scalars(".", "loss")).containsExactly(3.0, 2.0, 1.0);
    assertThat(watcher.stats()).isEqualTo(new LogdirWatcherStats(1, 1, 4, 3, 0, 0, 6_000));
    assertThat(problems).isEmpty();
  }

  @Test
  void aHalfWrittenRecordIsWaitedForNotReported() throws IOException {
    byte[] next = scalar("loss", 1, 1, 2f);
    int[] cuts = {5, 12, next.length - 1};
    Path file = Records.write(logdir, FILE_1, concat(version(), scalar("loss", 0, 0, 3f)));
    int written = 0;
    for (int cut : cuts) {
      Records.append(file, Arrays.copyOfRange(next, written, cut));
      written = cut;
      watcher.pollOnce();
      assertThat(scalars(".", "loss")).containsExactly(3.0);
    }
    long whole = java.nio.file.Files.size(file);
    assertThat(watcher.progress())
        .as("the torn record's bytes are not counted as read")
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.file()).isEqualTo(file.toString());
              assertThat(p.bytesTotal()).isEqualTo(whole);
              assertThat(p.bytesRead()).isEqualTo(whole - (next.length - 1));
              assertThat(p.reading()).isFalse();
              assertThat(p.error()).isNull();
            });
    Records.append(file, Arrays.copyOfRange(next, written, next.length));
    watcher.pollOnce();

    assertThat(scalars(".", "loss")).containsExactly(3.0, 2.0);
    assertThat(problems).isEmpty();
    assertThat(watcher.stats().errors()).isZero();
    long complete = java.nio.file.Files.size(file);
    assertThat(watcher.progress())
        .containsExactly(
            new EventFileProgress(".", file.toString(), complete, complete, false, null));
  }

  @Test
  void newRunsAndNewFilesOfARunAreFound() throws IOException {
    Path runA = Files.createDirectories(logdir.resolve("a"));
    Records.write(runA, FILE_1, concat(version(), scalar("loss", 0, 0, 1f)));
    watcher.pollOnce();
    assertThat(watcher.stats().runs()).isEqualTo(1);

    Path runB = Files.createDirectories(logdir.resolve("b/nested"));
    Records.write(runB, FILE_1, concat(version(), scalar("loss", 0, 0, 7f)));
    // A restarted writer's new file; its name sorts after the first one's.
    Records.write(runA, FILE_2, concat(version(), scalar("loss", 1, 600, 2f)));
    watcher.pollOnce();

    assertThat(scalars("a", "loss")).containsExactly(1.0, 2.0);
    assertThat(scalars("b/nested", "loss")).containsExactly(7.0);
    assertThat(watcher.stats().runs()).isEqualTo(2);
    assertThat(watcher.stats().files()).isEqualTo(3);
  }

  @Test
  void damageIsReportedOnceAndSkippedWhileOtherRunsGoOn() throws IOException {
    byte[] badCrc = scalar("loss", 1, 1, 2f);
    badCrc[badCrc.length - 6] ^= 0x40;
    byte[] event =
        EventBytes.summaryEvent(
            TfEvents.T0 + 2, 2, EventBytes.value("loss", null, null, v -> v.fixed32Float(2, 9f)));
    byte[] truncatedProtobuf = Records.frame(Arrays.copyOf(event, event.length - 3));
    byte[] a =
        concat(
            version(),
            scalar("loss", 0, 0, 1f),
            badCrc,
            truncatedProtobuf,
            scalar("loss", 3, 3, 4f));
    Path runA = Files.createDirectories(logdir.resolve("a"));
    Path fileA = Records.write(runA, FILE_1, a);
    Path runB = Files.createDirectories(logdir.resolve("b"));
    Path fileB = Records.write(runB, FILE_1, concat(version(), scalar("acc", 0, 0, 0.5f)));
    Path runC = Files.createDirectories(logdir.resolve("c"));
    byte[] garbage = new byte[4096];
    new Random(7).nextBytes(garbage);
    Path fileC = Records.write(runC, FILE_1, garbage);

    watcher.pollOnce();
    List<Integer> offsets = Records.offsets(a);
    // Each problem names kind, file and offset; the detail after ": " is the decoder's.
    assertThat(problems)
        .extracting(p -> p.substring(0, p.indexOf(": ")))
        .containsExactlyInAnyOrder(
            "BAD_DATA_CRC at " + fileA + ":" + offsets.get(2),
            "BAD_EVENT at " + fileA + ":" + offsets.get(3),
            "BAD_LENGTH_CRC at " + fileC + ":0");
    assertThat(scalars("a", "loss")).containsExactly(1.0, 4.0);
    assertThat(scalars("b", "acc")).containsExactly(0.5);

    Records.append(fileA, scalar("loss", 4, 4, 5f));
    Records.append(fileB, scalar("acc", 1, 1, 0.75f));
    Records.append(fileC, garbage);
    watcher.pollOnce();

    assertThat(problems).hasSize(3);
    assertThat(scalars("a", "loss")).containsExactly(1.0, 4.0, 5.0);
    assertThat(scalars("b", "acc")).containsExactly(0.5, 0.75);
    assertThat(watcher.stats().errors()).isEqualTo(3);
  }

  @Test
  void aStepGoingBackIsMarkedWhereTheRestartBegins() throws IOException {
    Path run = Files.createDirectories(logdir.resolve("r"));
    Records.write(
        run,
        FILE_1,
        concat(
            version(),
            scalar("loss", 98, 0, 1f),
            scalar("loss", 99, 1, 2f),
            scalar("loss", 90, 2, 3f),
            scalar("loss", 91, 3, 4f)));
    watcher.pollOnce();

    assertThat(scalars("r", "loss")).containsExactly(1.0, 2.0, 3.0, 4.0);
    assertThat(storage.samples(series(TensorBoardIngester.RESTART_STEP, "r", "loss")))
        .containsExactly(new RecordingAppendable.Sample(1_700_000_002_000L, 90));
  }

  @Test
  void theDuplicateStepsFixtureGetsOneRestartMarkerPerTag() throws IOException {
    Path source = SharedFixtures.fixture("tfevents/tensorboard-reducer/tests/runs/duplicate_steps");
    copyTree(source, logdir);
    watcher.pollOnce();

    for (String tag : List.of("dup_steps/foo", "dup_steps/bar")) {
      assertThat(scalars("run_1", tag)).hasSize(210);
      assertThat(storage.samples(series(TensorBoardIngester.RESTART_STEP, "run_1", tag)))
          .extracting(RecordingAppendable.Sample::v)
          .containsExactly(90.0);
    }
  }

  @Test
  void readingAgainFromTheStartAfterARestartChangesNothing() throws IOException {
    Path run = Files.createDirectories(logdir.resolve("r"));
    Path file =
        Records.write(
            run,
            FILE_1,
            concat(
                version(),
                scalar("loss", 0, 0, 1f),
                text("notes/text_summary", 0, 0, "first"),
                scalar("loss", 1, 1, 2f),
                scalar("loss", 0, 2, 3f)));
    byte[] half = scalar("loss", 1, 3, 4f);
    Records.append(file, Arrays.copyOf(half, 20));
    watcher.pollOnce();
    watcher.close();
    texts.close();

    Records.append(
        file,
        concat(
            Arrays.copyOfRange(half, 20, half.length), text("notes/text_summary", 1, 4, "second")));
    texts = FileTextStore.open(dataDir, logdir.toString());
    watcher = newWatcher(Duration.ofSeconds(1));
    watcher.pollOnce();

    RecordingAppendable once = new RecordingAppendable();
    ImportSummary summary =
        new TensorBoardImport(
                once,
                1000,
                new ImportListener() {
                  @Override
                  public void progress(ImportProgress progress) {}

                  @Override
                  public void problem(String message) {
                    problems.add(message);
                  }
                })
            .run(logdir.toString());
    assertThat(storage.series).isEqualTo(once.series);
    assertThat(summary.textPoints()).isEqualTo(2);
    assertThat(watcher.stats().errors()).isZero();
    assertThat(problems).isEmpty();
    assertThat(texts.fetch("r", "notes/text_summary", 0, 9))
        .extracting(TextSample::values)
        .containsExactly(List.of("first"), List.of("second"));
  }

  @Test
  void whenStorageFailsNothingIsLostAndTheFailureIsReportedOnce() throws IOException {
    boolean[] down = {false};
    Appendable flaky =
        () -> {
          if (down[0]) {
            throw new StorageUnavailableException("disk full [dir=data]", null);
          }
          return storage.appender();
        };
    watcher.close();
    watcher =
        new LogdirWatcher(
            LogdirWatcherOptions.defaults(logdir.toString()),
            flaky,
            new SideStores(texts, null, null),
            clock,
            problems::add);
    Path file = Records.write(logdir, FILE_1, concat(version(), scalar("loss", 0, 0, 1f)));
    watcher.pollOnce();

    down[0] = true;
    Records.append(file, concat(scalar("loss", 1, 1, 2f), text("notes", 1, 1, "kept")));
    watcher.pollOnce();
    Records.append(file, scalar("loss", 2, 2, 3f));
    watcher.pollOnce();
    assertThat(problems)
        .containsExactly("storage failed, reading " + logdir + " again: disk full [dir=data]");

    down[0] = false;
    watcher.pollOnce();
    assertThat(scalars(".", "loss")).containsExactly(1.0, 2.0, 3.0);
    assertThat(texts.fetch(".", "notes", 0, 9)).hasSize(1);
    assertThat(storage.samples(series(TensorBoardIngester.SCALAR_STEP, ".", "loss")))
        .extracting(RecordingAppendable.Sample::t)
        .containsExactly(1_700_000_000_000L, 1_700_000_001_000L, 1_700_000_002_000L);
    assertThat(problems).hasSize(1);
  }

  @Test
  void textSamplesAreStoredAndCounted() throws IOException {
    Records.write(
        logdir,
        FILE_1,
        concat(version(), text("samples/text_summary", 5, 0, "a generated **sample**")));
    watcher.pollOnce();

    assertThat(texts.runs()).containsExactly(".");
    assertThat(texts.search("sample**", 10))
        .containsExactly(
            new TextSample(
                ".", "samples/text_summary", 5, TfEvents.T0, List.of("a generated **sample**")));
    assertThat(watcher.stats().points()).isEqualTo(1);
  }

  @Test
  void aFileThatShrinksIsReportedOnceAndLeftAlone() throws IOException {
    Path file = Records.write(logdir, FILE_1, concat(version(), scalar("loss", 0, 0, 1f)));
    watcher.pollOnce();
    Files.write(file, version());
    watcher.pollOnce();
    Records.append(file, scalar("loss", 0, 0, 1f));
    Records.append(file, scalar("loss", 1, 1, 2f));
    watcher.pollOnce();

    assertThat(problems)
        .containsExactly(
            "event file shrank below read offset "
                + (version().length + scalar("loss", 0, 0, 1f).length)
                + " [file="
                + file
                + "]");
    assertThat(scalars(".", "loss")).containsExactly(1.0);
  }

  @Test
  void theStartedWatcherTailsOnItsOwnThreadUntilClosed() throws Exception {
    watcher = newWatcher(Duration.ofMillis(20));
    Path file = Records.write(logdir, FILE_1, version());
    watcher.start();
    Records.append(file, scalar("loss", 0, 0, 1f));

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (watcher.stats().points() < 1 && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(scalars(".", "loss")).containsExactly(1.0);
    Thread thread =
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("tensorboard-watcher " + logdir))
            .findFirst()
            .orElseThrow();
    assertThat(thread.isDaemon()).isTrue();

    watcher.close();
    assertThat(thread.isAlive()).isFalse();
  }

  private LogdirWatcher newWatcher(Duration interval) {
    if (watcher != null) {
      watcher.close();
    }
    return new LogdirWatcher(
        LogdirWatcherOptions.defaults(logdir.toString()).withPollInterval(interval),
        storage,
        new SideStores(texts, null, null),
        clock,
        problems::add);
  }

  private List<Double> scalars(String run, String tag) {
    return storage.samples(series(TensorBoardIngester.SCALAR, run, tag)).stream()
        .map(RecordingAppendable.Sample::v)
        .toList();
  }

  private Labels series(String metric, String run, String tag) {
    return Labels.of("__name__", metric, "tag", tag, "run", run, "logdir", logdir.toString());
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> paths = Files.walk(from)) {
      for (Path p : paths.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }
}
