package io.flightdeck.tensorboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every real event file under {@code shared/fixtures/tfevents} decodes to exactly the "decoded
 * summary" recorded in its fixture set's PROVENANCE.md: record count, no damage, file version, and
 * per tag the value kind, plugin, count, distinct steps, step range and first and last values
 * (float32 widened to double, so they compare exactly).
 */
class ProvenanceFixturesTest {
  private static final List<String> SETS =
      List.of("tensorboard-reducer", "process-tensorboard-logs", "tensorboard-flight-analysis");

  private static final Pattern FILE_LINE =
      Pattern.compile(
          "FILE \\./(.+?) \\| bytes (\\d+) \\| records (\\d+) \\| bad_data_crc (\\d+)"
              + " \\| file_version (\\S+) \\|.*");
  private static final Pattern STEPS_LINE =
      Pattern.compile("\\s*steps min/max (\\d+) (\\d+) step_decreases (\\d+)");
  private static final Pattern TAG_LINE =
      Pattern.compile(
          "\\s*tag='(.*)' kind=(\\S+) plugin=(\\S+)\\s+n=(\\d+) distinct_steps=(\\d+)"
              + " steps=(\\d+)\\.\\.(\\d+)(?: first=(\\S+)@(\\d+) last=(\\S+)@(\\d+))?");

  record TagExpectation(
      String tag,
      String kind,
      String plugin,
      int count,
      int distinctSteps,
      long minStep,
      long maxStep,
      String first,
      long firstStep,
      String last,
      long lastStep) {}

  record FileExpectation(
      Path file,
      long bytes,
      long records,
      int badCrc,
      String version,
      long maxStep,
      int stepDecreases,
      Map<String, TagExpectation> tags) {}

  @TestFactory
  Stream<DynamicTest> everyFixtureFileMatchesItsProvenance() throws IOException {
    List<FileExpectation> expectations = new ArrayList<>();
    for (String set : SETS) {
      expectations.addAll(parse(SharedFixtures.fixture("tfevents/" + set)));
    }
    assertThat(expectations).hasSize(19);
    try (Stream<Path> all = Files.walk(SharedFixtures.fixture("tfevents"))) {
      List<Path> eventFiles =
          all.filter(Files::isRegularFile)
              .filter(p -> p.getFileName().toString().contains("tfevents"))
              .toList();
      assertThat(eventFiles)
          .as("every fixture file has a PROVENANCE entry")
          .containsExactlyInAnyOrderElementsOf(
              expectations.stream().map(FileExpectation::file).toList());
    }
    return expectations.stream()
        .map(e -> DynamicTest.dynamicTest(e.file().getFileName().toString(), () -> check(e)));
  }

  private static void check(FileExpectation expected) {
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = new EventFileReader(expected.file()).poll(listener);

    assertThat(progress.records()).isEqualTo(expected.records());
    assertThat(progress.offset()).isEqualTo(expected.bytes());
    assertThat(progress.incomplete()).isFalse();
    assertThat(listener.corruptions).hasSize(expected.badCrc());
    assertThat(listener.versions).containsExactly(expected.version());

    Map<String, List<SummaryPoint>> byTag = new LinkedHashMap<>();
    long decreases = 0;
    long previous = 0;
    for (SummaryPoint p : listener.points) {
      byTag.computeIfAbsent(p.tag(), t -> new ArrayList<>()).add(p);
      if (p.step() < previous) {
        decreases++;
      }
      previous = p.step();
    }
    assertThat(byTag.keySet()).containsExactlyInAnyOrderElementsOf(expected.tags().keySet());
    assertThat(decreases).isEqualTo(expected.stepDecreases());
    assertThat(listener.points.stream().mapToLong(SummaryPoint::step).max().orElse(0))
        .isEqualTo(expected.maxStep());

    for (TagExpectation tag : expected.tags().values()) {
      List<SummaryPoint> points = byTag.get(tag.tag());
      assertThat(points).as(tag.tag()).hasSize(tag.count());
      assertThat(points).allMatch(p -> p.getClass() == pointClass(tag.kind(), tag.plugin()));
      assertThat(points.stream().mapToLong(SummaryPoint::step).distinct().count())
          .isEqualTo(tag.distinctSteps());
      assertThat(points.stream().mapToLong(SummaryPoint::step).min().orElseThrow())
          .isEqualTo(tag.minStep());
      assertThat(points.stream().mapToLong(SummaryPoint::step).max().orElseThrow())
          .isEqualTo(tag.maxStep());
      if (!tag.plugin().equals("None")) {
        assertThat(points)
            .allSatisfy(p -> assertThat(((SkippedValue) p).plugin()).isEqualTo(tag.plugin()));
      }
      if (tag.first() != null) {
        ScalarPoint first = (ScalarPoint) points.getFirst();
        ScalarPoint last = (ScalarPoint) points.getLast();
        assertThat(first.step()).isEqualTo(tag.firstStep());
        assertThat(first.value()).as(tag.tag()).isEqualTo(Double.parseDouble(tag.first()));
        assertThat(last.step()).isEqualTo(tag.lastStep());
        assertThat(last.value()).as(tag.tag()).isEqualTo(Double.parseDouble(tag.last()));
      }
    }
  }

  /** The fixtures hold legacy scalars and histograms and one unknown-plugin tag set. */
  private static Class<? extends SummaryPoint> pointClass(String kind, String plugin) {
    return switch (kind) {
      case "simple_value" -> ScalarPoint.class;
      case "histo" -> HistogramPoint.class;
      default -> {
        assertThat(plugin).isEqualTo("flight");
        yield SkippedValue.class;
      }
    };
  }

  private static List<FileExpectation> parse(Path set) throws IOException {
    List<FileExpectation> files = new ArrayList<>();
    FileExpectation current = null;
    for (String line : Files.readAllLines(set.resolve("PROVENANCE.md"))) {
      Matcher m;
      if ((m = FILE_LINE.matcher(line)).matches()) {
        current =
            new FileExpectation(
                set.resolve(m.group(1)),
                Long.parseLong(m.group(2)),
                Long.parseLong(m.group(3)),
                Integer.parseInt(m.group(4)),
                m.group(5),
                0,
                0,
                new LinkedHashMap<>());
        files.add(current);
      } else if (current != null && (m = STEPS_LINE.matcher(line)).matches()) {
        current =
            new FileExpectation(
                current.file(),
                current.bytes(),
                current.records(),
                current.badCrc(),
                current.version(),
                Long.parseLong(m.group(2)),
                Integer.parseInt(m.group(3)),
                current.tags());
        files.set(files.size() - 1, current);
      } else if (current != null && (m = TAG_LINE.matcher(line)).matches()) {
        current
            .tags()
            .put(
                m.group(1),
                new TagExpectation(
                    m.group(1),
                    m.group(2),
                    m.group(3),
                    Integer.parseInt(m.group(4)),
                    Integer.parseInt(m.group(5)),
                    Long.parseLong(m.group(6)),
                    Long.parseLong(m.group(7)),
                    m.group(8),
                    m.group(9) == null ? 0 : Long.parseLong(m.group(9)),
                    m.group(10),
                    m.group(11) == null ? 0 : Long.parseLong(m.group(11))));
      }
    }
    return files;
  }

  /** A few expectations spelled out, so a broken PROVENANCE parser cannot hide a broken reader. */
  @Test
  void strictRunOneByHand() {
    Path file =
        SharedFixtures.fixture(
            "tfevents/tensorboard-reducer/tests/runs/strict/run_1/"
                + "events.out.tfevents.1622543341.janoshs-mbp.lan.86862.0");
    CollectingListener listener = new CollectingListener();
    new EventFileReader(file).poll(listener);
    List<ScalarPoint> foo = listener.of(ScalarPoint.class, "strict/foo");
    assertThat(foo).hasSize(100);
    assertThat(foo.getFirst().step()).isZero();
    assertThat(foo.getFirst().value()).isEqualTo(1.4962565898895264);
    assertThat(foo.getFirst().wallTimeSeconds()).isGreaterThan(1622543341.0);
    assertThat(foo.get(1).step()).isEqualTo(5);
    assertThat(foo.getLast().step()).isEqualTo(495);
    assertThat(foo.getLast().value()).isEqualTo(1.212090253829956);
  }

  @Test
  void rayHistogramsAreWellFormed() {
    Path file =
        SharedFixtures.fixture(
            "tfevents/process-tensorboard-logs/Ray_PPO_cycle_1e6/"
                + "PPO_JBW-cycle-1e6-v3_9a92d_00000_0_2021-04-11_10-56-44/"
                + "events.out.tfevents.1618138604.285e2a0aa751");
    CollectingListener listener = new CollectingListener();
    new EventFileReader(file).poll(listener);
    List<HistogramPoint> rewards =
        listener.of(HistogramPoint.class, "ray/tune/hist_stats/episode_reward");
    assertThat(rewards).hasSize(498);
    assertThat(rewards.getFirst().step()).isEqualTo(12000);
    assertThat(rewards.getLast().step()).isEqualTo(2000000);
    assertThat(listener.of(HistogramPoint.class)).hasSize(2 * 498);
    assertThat(listener.of(HistogramPoint.class))
        .allSatisfy(
            h -> {
              assertThat(h.bucketLimits()).hasSameSizeAs(h.bucketCounts()).isNotEmpty();
              assertThat(h.bucketCounts().stream().mapToDouble(Double::doubleValue).sum())
                  .isEqualTo(h.num());
              assertThat(h.min()).isLessThanOrEqualTo(h.max());
            });
  }

  @Test
  void flightPluginValuesAreSkippedAndCounted() {
    Path file =
        SharedFixtures.fixture(
            "tfevents/tensorboard-flight-analysis/src/frontend/test_logs/"
                + "events.out.tfevents.1764405461.MacBookPro.lan.58393.0");
    CollectingListener listener = new CollectingListener();
    ReadProgress progress = new EventFileReader(file).poll(listener);
    assertThat(progress.records()).isEqualTo(4);
    assertThat(listener.of(SkippedValue.class))
        .extracting(SkippedValue::tag, SkippedValue::step, SkippedValue::plugin)
        .containsExactly(
            tuple("flight/agent_0/episode", 0L, "flight"),
            tuple("flight/agent_1/episode", 1L, "flight"),
            tuple("flight/agent_2/episode", 2L, "flight"));
    assertThat(listener.points).hasSize(3);
  }
}
