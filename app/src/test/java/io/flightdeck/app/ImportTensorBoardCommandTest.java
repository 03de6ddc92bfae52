package io.flightdeck.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.flightdeck.model.Labels;
import io.flightdeck.model.Matcher;
import io.flightdeck.storage.Querier;
import io.flightdeck.storage.SampleIterator;
import io.flightdeck.storage.SeriesSet;
import io.flightdeck.tensorboard.EventListener;
import io.flightdeck.tensorboard.RunDiscovery;
import io.flightdeck.tensorboard.RunReader;
import io.flightdeck.tensorboard.ScalarPoint;
import io.flightdeck.tensorboard.SummaryPoint;
import io.flightdeck.tensorboard.TensorBoardRun;
import io.flightdeck.testkit.SharedFixtures;
import io.flightdeck.tsdb.Tsdb;
import io.flightdeck.tsdb.TsdbOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code flightdeck import tensorboard}, run in-process against the real fixtures and a temporary
 * data directory, checked by querying the TSDB afterwards.
 */
class ImportTensorBoardCommandTest {
  private static final Path REDUCER = SharedFixtures.fixture("tfevents/tensorboard-reducer");
  private static final String STRICT_FILE =
      "tests/runs/strict/run_1/events.out.tfevents.1622543341.janoshs-mbp.lan.86862.0";

  @TempDir Path data;
  @TempDir Path logdirs;

  record Result(int exitCode, String stdout, String stderr) {
    JsonNode json() throws IOException {
      return new ObjectMapper().readTree(stdout);
    }
  }

  record Sample(long t, double v) {}

  static Stream<String> fixtureLogdirs() throws IOException {
    try (Stream<Path> sets = Files.list(SharedFixtures.fixture("tfevents"))) {
      return sets.filter(Files::isDirectory).map(Path::toString).sorted().toList().stream();
    }
  }

  @ParameterizedTest
  @MethodSource("fixtureLogdirs")
  void storesEveryScalarTheReaderDecodes(String logdir) throws IOException {
    Result result = importLogdir(logdir);

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    Map<List<String>, Integer> decoded = decodedScalarCounts(Path.of(logdir));
    assertThat(result.json().get("scalar_points").asLong())
        .isEqualTo(decoded.values().stream().mapToLong(Integer::longValue).sum());
    assertThat(result.json().get("errors").asLong()).isZero();
    assertThat(result.json().get("runs").asLong())
        .isEqualTo(RunDiscovery.discover(Path.of(logdir)).size());
    for (Map.Entry<List<String>, Integer> e : decoded.entrySet()) {
      String run = e.getKey().get(0);
      String tag = e.getKey().get(1);
      assertThat(samples("tensorboard_scalar", logdir, run, tag))
          .as("%s %s", run, tag)
          .hasSize(e.getValue());
      assertThat(samples("tensorboard_scalar_step", logdir, run, tag)).hasSize(e.getValue());
    }
  }

  @Test
  void keepsExactValuesStepsAndRestartsFromProvenance() throws IOException {
    String logdir = REDUCER.toString();
    assertThat(importLogdir(logdir).exitCode()).isZero();

    List<Sample> foo =
        samples("tensorboard_scalar", logdir, "tests/runs/strict/run_1", "strict/foo");
    assertThat(foo).hasSize(100);
    assertThat(foo.getFirst().v()).isEqualTo(1.4962565898895264);
    assertThat(foo.getLast().v()).isEqualTo(1.212090253829956);
    List<Sample> steps =
        samples("tensorboard_scalar_step", logdir, "tests/runs/strict/run_1", "strict/foo");
    assertThat(steps.getFirst().v()).isEqualTo(0);
    assertThat(steps.getLast().v()).isEqualTo(495);
    // The step goes 99 -> 90: TensorBoard would show 200 points, we keep all 210 and the drop.
    String restarted = "tests/runs/duplicate_steps/run_1";
    assertThat(samples("tensorboard_scalar", logdir, restarted, "dup_steps/foo")).hasSize(210);
    List<Double> restartSteps =
        samples("tensorboard_scalar_step", logdir, restarted, "dup_steps/foo").stream()
            .map(Sample::v)
            .toList();
    int drop = restartSteps.indexOf(99.0) + 1;
    assertThat(restartSteps.get(drop)).isEqualTo(90.0);
  }

  @Test
  void histogramsCanBeQueriedAsPrometheusHistograms() throws IOException {
    String logdir = SharedFixtures.fixture("tfevents/process-tensorboard-logs").toString();
    Result result = importLogdir(logdir);
    assertThat(result.json().get("histogram_points").asLong()).isEqualTo(2 * 498);

    String run = "Ray_PPO_cycle_1e6/PPO_JBW-cycle-1e6-v3_9a92d_00000_0_2021-04-11_10-56-44";
    String tag = "ray/tune/hist_stats/episode_reward";
    List<Sample> count = samples("tensorboard_histogram_count", logdir, run, tag);
    assertThat(count).hasSize(498);
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(data));
        Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set =
          q.select(
              true,
              Matcher.equal("__name__", "tensorboard_histogram_bucket"),
              Matcher.equal("tag", tag),
              Matcher.equal("le", "+Inf"));
      assertThat(set.next()).isTrue();
      assertThat(read(set)).isEqualTo(count);
    }
  }

  @Test
  void stepsWrittenWithinOneMillisecondAreAllKept() throws IOException {
    Path run = Files.createDirectories(logdirs.resolve("fast/run"));
    TfEventsFiles file = new TfEventsFiles();
    for (int step = 0; step < 5; step++) {
      file.scalar(1_700_000_000.0005, step, "train/loss", step);
    }
    Files.write(run.resolve("events.out.tfevents.1700000000.host.1.0"), file.bytes());
    String logdir = logdirs.resolve("fast").toString();

    Result result = importLogdir(logdir);

    assertThat(result.json().get("scalar_points").asLong()).isEqualTo(5);
    assertThat(samples("tensorboard_scalar", logdir, "run", "train/loss"))
        .extracting(Sample::t, Sample::v)
        .containsExactly(
            tuple(1_700_000_000_000L, 0.0),
            tuple(1_700_000_000_001L, 1.0),
            tuple(1_700_000_000_002L, 2.0),
            tuple(1_700_000_000_003L, 3.0),
            tuple(1_700_000_000_004L, 4.0));
    assertThat(samples("tensorboard_scalar_step", logdir, "run", "train/loss"))
        .extracting(Sample::v)
        .containsExactly(0.0, 1.0, 2.0, 3.0, 4.0);
  }

  @Test
  void aSmallMemoryBoundWritesBlocksAsItGoesAndKeepsEveryPointOnce() throws IOException {
    // Run b lies behind run a in time: with blocks written as the import goes, nothing is
    // "behind the head" and both runs are kept whole.
    for (String run : List.of("a", "b")) {
      TfEventsFiles file = new TfEventsFiles();
      double start = run.equals("a") ? 1_700_036_000.0 : 1_700_000_000.0;
      for (int step = 0; step < 600; step++) {
        file.scalar(start + step * 60.0, step, "loss", step * 0.37f);
      }
      Path dir = Files.createDirectories(logdirs.resolve("long/" + run));
      Files.write(dir.resolve("events.out.tfevents.1700000000.host.1.0"), file.bytes());
    }
    String logdir = logdirs.resolve("long").toString();

    Result result =
        run(
            "import",
            "tensorboard",
            logdir,
            "--storage.tsdb.path=" + data,
            "--output=json",
            "--import.max-memory=1KB");

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.json().get("errors").asLong()).isZero();
    assertThat(samples("tensorboard_scalar", logdir, "a", "loss")).hasSize(600);
    assertThat(samples("tensorboard_scalar", logdir, "b", "loss")).hasSize(600);
    assertThat(storedSamples()).as("value and step series of both runs, once").isEqualTo(2_400);
  }

  @Test
  void runsOlderThanWhatTheDataDirectoryHoldsAreBackfilled() throws IOException {
    try (Tsdb tsdb = Tsdb.open(TsdbOptions.defaults(data))) {
      var app = tsdb.appender();
      app.append(0, Labels.of("__name__", "up", "job", "live"), System.currentTimeMillis(), 1);
      app.commit();
    }
    String logdir = REDUCER.toString();

    Result result = importLogdir(logdir);

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.json().get("errors").asLong()).isZero();
    assertThat(samples("tensorboard_scalar", logdir, "tests/runs/strict/run_1", "strict/foo"))
        .hasSize(100);
  }

  @ParameterizedTest
  @CsvSource({
    "--import.max-memory=0MB, --import.max-memory must be a positive size such as 64MB: 0MB",
    "--import.workers=0, --import.workers must be at least 1: 0"
  })
  void aBoundOfNothingIsAUsageError(String option, String message) {
    Result result =
        run("import", "tensorboard", REDUCER.toString(), "--storage.tsdb.path=" + data, option);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains(message);
  }

  @Test
  void oneWorkerAndSeveralStoreTheSameSamples() throws IOException {
    String logdir = SharedFixtures.fixture("tfevents").toString();
    Map<Labels, List<Sample>> fromOne = everySampleImported(logdir, 1);
    assertThat(fromOne).hasSizeGreaterThan(100);
    assertThat(everySampleImported(logdir, 3)).isEqualTo(fromOne);
  }

  private Map<Labels, List<Sample>> everySampleImported(String logdir, int workers)
      throws IOException {
    Path into = data.resolve("workers-" + workers);
    Result result =
        run(
            "import",
            "tensorboard",
            logdir,
            "--storage.tsdb.path=" + into,
            "--import.workers=" + workers);
    assertThat(result.exitCode()).as(result.stderr()).isZero();
    return everySample(into);
  }

  @Test
  void importingTwiceAddsNothing() throws IOException {
    String logdir = REDUCER.toString();
    Result first = importLogdir(logdir);
    Map<Labels, List<Sample>> before = everything();

    Result second = importLogdir(logdir);

    assertThat(second.exitCode()).as(second.stderr()).isZero();
    assertThat(second.json()).isEqualTo(first.json());
    assertThat(second.json().get("errors").asLong()).isZero();
    assertThat(everything()).isEqualTo(before);
    long stored = everything().values().stream().mapToLong(List::size).sum();
    assertThat(storedSamples()).as("each sample stored once").isEqualTo(stored);
  }

  @Test
  void jsonSummaryHasExactlyTheDocumentedKeys() throws IOException {
    Result result = importLogdir(REDUCER.toString());

    List<String> keys = new ArrayList<>();
    result.json().fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
            "runs",
            "scalar_points",
            "histogram_points",
            "text_points",
            "image_points",
            "hparams_points",
            "skipped",
            "errors");
    assertThat(result.stdout().strip().lines()).hasSize(1);
    assertThat(result.stderr()).contains("import: runs 9/9 files 9/9 records");
  }

  @Test
  void textOutputIsOneLineOfKeyValuePairs() {
    Result result = run("import", "tensorboard", REDUCER.toString(), "--storage.tsdb.path=" + data);

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.stdout().strip())
        .matches(
            "runs=9 scalar_points=\\d+ histogram_points=0 text_points=0 image_points=0"
                + " hparams_points=0 skipped=0 errors=0");
  }

  @Test
  void aCorruptFileIsReportedAndTheRestImported() throws IOException {
    Path good = Files.createDirectories(logdirs.resolve("mixed/good"));
    Path bad = Files.createDirectories(logdirs.resolve("mixed/bad"));
    Path fixture = REDUCER.resolve(STRICT_FILE);
    Files.copy(fixture, good.resolve(fixture.getFileName()));
    byte[] bytes = Files.readAllBytes(fixture);
    // Damage the third record (the second scalar): record = 16 framing bytes + payload.
    ByteBuffer framing = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int second = 16 + (int) framing.getLong(0);
    int third = second + 16 + (int) framing.getLong(second);
    bytes[third + 20] ^= 0x55;
    Files.write(bad.resolve(fixture.getFileName()), bytes);
    String logdir = logdirs.resolve("mixed").toString();

    Result result = importLogdir(logdir);

    assertThat(result.exitCode()).as(result.stderr()).isZero();
    assertThat(result.json().get("errors").asLong()).isEqualTo(1);
    assertThat(result.json().get("scalar_points").asLong()).isEqualTo(199);
    assertThat(result.stderr())
        .contains("BAD_DATA_CRC at " + bad.resolve(fixture.getFileName()) + ":" + third);
    assertThat(samples("tensorboard_scalar", logdir, "good", "strict/foo")).hasSize(100);
    assertThat(samples("tensorboard_scalar", logdir, "bad", "strict/foo")).hasSize(99);
  }

  @Test
  void aMissingLogdirIsAUsageError() {
    Result result =
        run(
            "import",
            "tensorboard",
            logdirs.resolve("nope").toString(),
            "--storage.tsdb.path=" + data);

    assertThat(result.exitCode()).isEqualTo(2);
    assertThat(result.stderr()).contains("logdir is not a directory");
  }

  private Result importLogdir(String logdir) {
    return run("import", "tensorboard", logdir, "--storage.tsdb.path=" + data, "--output=json");
  }

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        Main.commandLine(args)
            .setOut(new PrintWriter(out))
            .setErr(new PrintWriter(err))
            .execute(args);
    return new Result(code, out.toString(), err.toString());
  }

  /** Scalar points per (run, tag) as the tensorboard module's reader decodes them. */
  private static Map<List<String>, Integer> decodedScalarCounts(Path logdir) {
    Map<List<String>, Integer> counts =
        new TreeMap<>((a, b) -> String.join("\0", a).compareTo(String.join("\0", b)));
    for (TensorBoardRun run : RunDiscovery.discover(logdir)) {
      new RunReader(run)
          .poll(
              new EventListener() {
                @Override
                public void point(SummaryPoint point) {
                  if (point instanceof ScalarPoint) {
                    counts.merge(List.of(run.name(), point.tag()), 1, Integer::sum);
                  }
                }
              });
    }
    return counts;
  }

  private List<Sample> samples(String metric, String logdir, String run, String tag)
      throws IOException {
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(data));
        Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set =
          q.select(
              true,
              Matcher.equal("__name__", metric),
              Matcher.equal("logdir", logdir),
              Matcher.equal("run", run),
              Matcher.equal("tag", tag));
      if (!set.next()) {
        return List.of();
      }
      List<Sample> samples = read(set);
      assertThat(set.next()).as("one series").isFalse();
      return samples;
    }
  }

  private static Map<Labels, List<Sample>> everySample(Path dataDir) throws IOException {
    Map<Labels, List<Sample>> all = new TreeMap<>();
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(dataDir));
        Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.regex("__name__", ".+"));
      while (set.next()) {
        all.put(set.at().labels(), read(set));
      }
    }
    return all;
  }

  /** Samples in the data directory's blocks and head, counting a sample stored twice twice. */
  private long storedSamples() throws IOException {
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(data))) {
      long inHead = 0;
      try (Querier q = tsdb.head().querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
        SeriesSet set = q.select(false, Matcher.regex("__name__", ".+"));
        while (set.next()) {
          inHead += read(set).size();
        }
      }
      return inHead + tsdb.blockMetas().stream().mapToLong(m -> m.numSamples()).sum();
    }
  }

  private Map<Labels, List<Sample>> everything() throws IOException {
    Map<Labels, List<Sample>> all = new TreeMap<>();
    try (Tsdb tsdb = Tsdb.openReadOnly(TsdbOptions.defaults(data));
        Querier q = tsdb.querier(Long.MIN_VALUE, Long.MAX_VALUE)) {
      SeriesSet set = q.select(true, Matcher.regex("__name__", ".+"));
      while (set.next()) {
        all.put(set.at().labels(), read(set));
      }
    }
    return all;
  }

  private static List<Sample> read(SeriesSet set) {
    List<Sample> samples = new ArrayList<>();
    SampleIterator it = set.at().iterator(null);
    while (it.next()) {
      samples.add(new Sample(it.timestamp(), it.value()));
    }
    return samples;
  }
}
