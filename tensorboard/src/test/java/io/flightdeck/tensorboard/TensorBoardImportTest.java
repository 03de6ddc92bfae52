package io.flightdeck.tensorboard;

import static io.flightdeck.tensorboard.TfEvents.concat;
import static io.flightdeck.tensorboard.TfEvents.scalar;
import static io.flightdeck.tensorboard.TfEvents.text;
import static io.flightdeck.tensorboard.TfEvents.version;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricMetadata;
import io.flightdeck.storage.Appendable;
import io.flightdeck.storage.Appender;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A whole logdir imported once, on one worker (a decoding thread beside the storing one) or on
 * several, each reading, decoding and storing whole runs: both store the same samples and report
 * the same damage and progress.
 */
class TensorBoardImportTest {
  private static final String FILE_1 = "events.out.tfevents.1700000000.host.1.0";
  private static final String FILE_2 = "events.out.tfevents.1700000500.host.2.0";

  @TempDir Path logdir;

  /** What one import stored and told its listener. */
  record Imported(
      RecordingAppendable storage,
      ImportSummary summary,
      List<String> problems,
      List<ImportProgress> progress) {}

  private static Imported importOn(int workers, Path logdir) {
    RecordingAppendable storage = new RecordingAppendable();
    List<String> problems = new ArrayList<>();
    List<ImportProgress> progress = new ArrayList<>();
    ImportSummary summary =
        new TensorBoardImport(
                storage,
                SideStores.NONE,
                1000,
                workers,
                new ImportListener() {
                  @Override
                  public void progress(ImportProgress p) {
                    progress.add(p);
                  }

                  @Override
                  public void problem(String message) {
                    problems.add(message);
                  }
                })
            .run(logdir.toString());
    return new Imported(storage, summary, problems, progress);
  }

  @Test
  void severalWorkersStoreWhatOneStoresFromTheSharedFixtures() {
    Path fixtures = SharedFixtures.fixture("tfevents");
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(fixtures)))
        .as("no fixture run holds half the bytes, so four workers split the runs")
        .isTrue();
    Imported one = importOn(1, fixtures);
    Imported four = importOn(4, fixtures);

    assertThat(one.summary().runs()).isGreaterThan(10);
    assertThat(one.summary().scalarPoints()).isGreaterThan(10_000);
    assertThat(four.summary()).isEqualTo(one.summary());
    assertThat(four.storage().series).isEqualTo(one.storage().series);
    assertThat(four.problems()).containsExactlyInAnyOrderElementsOf(one.problems());
    assertThat(four.progress().getLast()).isEqualTo(one.progress().getLast());
    ImportProgress last = one.progress().getLast();
    assertThat(last.runsDone()).isEqualTo(last.runsTotal());
    assertThat(last.filesDone()).isEqualTo(last.filesTotal());
  }

  /**
   * Six runs of two files each; run r3's first file has a record whose data CRC fails and its
   * second ends in half a record.
   */
  private List<Path> writeRunsWithDamageInOne() throws IOException {
    List<Path> damaged = new ArrayList<>();
    for (int run = 0; run < 6; run++) {
      Path dir = Files.createDirectories(logdir.resolve("r" + run));
      List<byte[]> first = new ArrayList<>(List.of(version()));
      for (int step = 0; step < 50 * (run + 1); step++) {
        first.add(scalar("loss", step, step, run + step / 64f));
      }
      first.add(text("notes/text_summary", 0, 0, "run " + run));
      byte[] firstFile = concat(first.toArray(byte[][]::new));
      byte[] secondFile =
          concat(version(), scalar("loss", 1_000, 1_000, 0.5f), scalar("lr", 1_000, 1_000, 1e-4f));
      if (run == 3) {
        int record = Records.offsets(firstFile).get(10);
        firstFile[record + 12 + 5] ^= 0x40;
        secondFile = Arrays.copyOf(secondFile, secondFile.length - 7);
      }
      Path one = Records.write(dir, FILE_1, firstFile);
      Path two = Records.write(dir, FILE_2, secondFile);
      if (run == 3) {
        damaged.add(one);
        damaged.add(two);
      }
    }
    return damaged;
  }

  @Test
  void damageInOneRunIsReportedWithItsFileAndTheOtherRunsAreStored() throws IOException {
    List<Path> damaged = writeRunsWithDamageInOne();
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(logdir))).isTrue();

    Imported one = importOn(1, logdir);
    Imported three = importOn(3, logdir);

    assertThat(three.summary().errors()).isEqualTo(2);
    assertThat(three.problems())
        .hasSize(2)
        .anySatisfy(p -> assertThat(p).contains(damaged.get(0) + ":"))
        .anySatisfy(p -> assertThat(p).startsWith("truncated record at " + damaged.get(1) + ":"));
    // Every scalar but the damaged one, and each run's text.
    long scalars = 0;
    for (int run = 0; run < 6; run++) {
      scalars += 50 * (run + 1) + 2;
    }
    assertThat(three.summary().scalarPoints()).isEqualTo(scalars - 2);
    assertThat(three.summary().textPoints()).isEqualTo(6);
    assertThat(three.summary()).isEqualTo(one.summary());
    assertThat(three.storage().series).isEqualTo(one.storage().series);
    assertThat(three.problems()).containsExactlyInAnyOrderElementsOf(one.problems());
    assertThat(three.progress()).hasSize(12);
    assertThat(three.progress().getLast()).isEqualTo(one.progress().getLast());
  }

  @Test
  void runsAreSplitAmongThreadsOnlyWhenNoneHoldsMostOfTheBytes() throws IOException {
    for (String run : List.of("a", "b", "c")) {
      Records.write(Files.createDirectories(logdir.resolve(run)), FILE_1, new byte[100]);
    }
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(logdir))).isTrue();

    Records.write(logdir.resolve("a"), FILE_2, new byte[100]);
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(logdir)))
        .as("a: 200 of 400 bytes")
        .isTrue();

    Records.write(logdir.resolve("a"), FILE_2, new byte[101]);
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(logdir)))
        .as("a: 201 of 401 bytes")
        .isFalse();
    assertThat(RunImportThreads.splitsWell(RunDiscovery.discover(logdir.resolve("b")))).isFalse();
  }

  /** An exception and an error, such as running out of memory, thrown by the storage. */
  static Stream<Arguments> failures() {
    return Stream.of(1, 3)
        .flatMap(
            workers ->
                Stream.of(
                    Arguments.of(workers, new IllegalStateException("the disk caught fire")),
                    Arguments.of(workers, new OutOfMemoryError("the heap caught fire"))));
  }

  @ParameterizedTest
  @MethodSource("failures")
  @Timeout(60) // a thread that died unreported would leave the import waiting for ever
  void aStorageFailureStopsTheImportWithItsError(int workers, Throwable failure)
      throws IOException {
    writeRunsWithDamageInOne();
    RecordingAppendable healthy = new RecordingAppendable();
    Appendable failingOnRunR4 =
        () -> {
          Appender appender = healthy.appender();
          return new Appender() {
            @Override
            public long append(long ref, Labels labels, long t, double v) {
              if ("r4".equals(labels.get("run"))) {
                if (failure instanceof Error error) {
                  throw error;
                }
                throw (RuntimeException) failure;
              }
              return appender.append(ref, labels, t, v);
            }

            @Override
            public void updateMetadata(String metricName, MetricMetadata metadata) {}

            @Override
            public void commit() {
              appender.commit();
            }

            @Override
            public void rollback() {
              appender.rollback();
            }
          };
        };
    TensorBoardImport importer =
        new TensorBoardImport(
            failingOnRunR4,
            SideStores.NONE,
            1000,
            workers,
            new ImportListener() {
              @Override
              public void progress(ImportProgress progress) {}

              @Override
              public void problem(String message) {}
            });

    assertThatThrownBy(() -> importer.run(logdir.toString())).isSameAs(failure);
  }
}
