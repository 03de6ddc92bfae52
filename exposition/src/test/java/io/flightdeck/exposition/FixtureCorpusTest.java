package io.flightdeck.exposition;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.flightdeck.model.Labels;
import io.flightdeck.model.MetricType;
import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/** Real exporter and client-library output from ../shared/fixtures/exposition. */
class FixtureCorpusTest {

  private static List<Path> files(String folder, String suffix) throws IOException {
    try (Stream<Path> walk = Files.walk(SharedFixtures.fixture("exposition/" + folder))) {
      return walk.filter(p -> p.toString().endsWith(suffix)).sorted().toList();
    }
  }

  /** Samples counted independently of the parser: lines that are neither blank nor comments. */
  private static long sampleLines(String body) {
    return body.lines().map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).count();
  }

  /** Distinct family names on HELP and TYPE lines, counted without the parser. */
  private static long declaredFamilies(String body) {
    Set<String> names = new HashSet<>();
    body.lines()
        .filter(l -> l.startsWith("# HELP ") || l.startsWith("# TYPE ") || l.startsWith("# UNIT "))
        .forEach(l -> names.add(l.substring(7).split(" ", 2)[0]));
    return names.size();
  }

  private static List<ParsedSample> parse(ExpositionFormat format, Path file)
      throws IOException, ExpositionParseException {
    return ExpositionParser.parseAll(format, Files.readAllBytes(file), ParseOptions.defaults());
  }

  private static Stream<DynamicTest> countingTests(ExpositionFormat format, List<Path> files) {
    return files.stream()
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.getFileName().toString(),
                    () -> {
                      String body = Files.readString(file, StandardCharsets.UTF_8);
                      ExpositionParser parser =
                          ExpositionParser.create(
                              format,
                              body.getBytes(StandardCharsets.UTF_8),
                              ParseOptions.defaults());
                      long samples = 0;
                      while (parser.next() != null) {
                        samples++;
                      }
                      assertThat(samples).isEqualTo(sampleLines(body));
                      assertThat((long) parser.metadata().size()).isEqualTo(declaredFamilies(body));
                    }));
  }

  @TestFactory
  Stream<DynamicTest> textFormatFilesParse() throws IOException {
    List<Path> files =
        Stream.of(
                files("client_python/text-format-0.0.4", ".txt"),
                files("node_exporter", ".txt"),
                files("node_exporter/textfile", ".prom"),
                files("node_exporter/textfile", ".out"),
                files("nvidia_gpu_exporter", ".metrics"))
            .flatMap(List::stream)
            .toList();
    assertThat(files).hasSize(15 + 2 + 2 + 2 + 3);
    return countingTests(ExpositionFormat.TEXT_0_0_4, files);
  }

  @TestFactory
  Stream<DynamicTest> openMetricsFilesParse() throws IOException {
    List<Path> files = files("client_python/openmetrics", ".txt");
    assertThat(files).hasSize(32);
    List<Path> classic = files.stream().filter(f -> !isNativeHistogram(f)).toList();
    assertThat(classic).hasSize(21);
    return countingTests(ExpositionFormat.OPENMETRICS_1_0_0, classic);
  }

  /**
   * Native histograms ({@code {count:...}}) are OpenMetrics 2.0 draft syntax; a 1.0 parser rejects
   * them, and must do so with its one exception type.
   */
  @TestFactory
  Stream<DynamicTest> nativeHistogramsAreRejectedCleanly() throws IOException {
    return files("client_python/openmetrics", ".txt").stream()
        .filter(FixtureCorpusTest::isNativeHistogram)
        .map(
            file ->
                DynamicTest.dynamicTest(
                    file.getFileName().toString(),
                    () ->
                        assertThatThrownBy(() -> parse(ExpositionFormat.OPENMETRICS_1_0_0, file))
                            .isInstanceOf(ExpositionParseException.class)
                            .hasMessageContaining("invalid value \"{count:")));
  }

  /** Whether a body uses native-histogram values such as {@code {count:24,...}}. */
  private static boolean isNativeHistogram(Path file) {
    try {
      return Files.readString(file).contains("{count:");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static ParsedSample find(List<ParsedSample> samples, Labels labels) {
    return samples.stream()
        .filter(s -> s.labels().equals(labels))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no sample " + labels));
  }

  @Test
  void nodeExporterValuesAndFamilies() throws Exception {
    List<ParsedSample> samples =
        parse(
            ExpositionFormat.TEXT_0_0_4,
            SharedFixtures.fixture("exposition/node_exporter/e2e-output.txt"));
    ParsedSample idle =
        find(samples, Labels.of("__name__", "node_cpu_seconds_total", "cpu", "0", "mode", "idle"));
    assertThat(idle.value()).isEqualTo(10870.69);
    assertThat(idle.metadata().type()).isEqualTo(MetricType.COUNTER);
    ParsedSample load = find(samples, Labels.of("__name__", "node_load1"));
    assertThat(load.value()).isEqualTo(0.21);
    assertThat(load.metadata().help()).isEqualTo("1m load average.");
    assertThat(load.timestampMs()).isEmpty();
  }

  @Test
  void gpuExporterValueInBaseUnits() throws Exception {
    List<ParsedSample> samples =
        parse(
            ExpositionFormat.TEXT_0_0_4,
            SharedFixtures.fixture(
                "exposition/nvidia_gpu_exporter/linux-x86_64__nvidia-h100-80gb-hbm3__590.48.01__load.metrics"));
    ParsedSample clock =
        find(
            samples,
            Labels.of(
                "__name__",
                "nvidia_smi_clocks_current_sm_clock_hz",
                "uuid",
                "00000000-0000-0000-0000-000000000000"));
    assertThat(clock.value()).isEqualTo(1.98e9);
    assertThat(clock.metadata().type()).isEqualTo(MetricType.GAUGE);
  }

  @Test
  void textfileCollectorReexposesItsInputUnchanged() throws Exception {
    for (String name : List.of("histogram", "different_metric_types")) {
      Path folder = SharedFixtures.fixture("exposition/node_exporter/textfile");
      List<ParsedSample> input =
          parse(ExpositionFormat.TEXT_0_0_4, folder.resolve(name + "/metrics.prom"));
      Map<Labels, Double> output = new HashMap<>();
      parse(ExpositionFormat.TEXT_0_0_4, folder.resolve(name + ".out"))
          .forEach(s -> output.put(s.labels(), s.value()));
      assertThat(input).isNotEmpty();
      for (ParsedSample sample : input) {
        assertThat(output).containsEntry(sample.labels(), sample.value());
      }
    }
  }

  @Test
  void histogramBucketsBelongToTheirFamily() throws Exception {
    List<ParsedSample> samples =
        parse(
            ExpositionFormat.TEXT_0_0_4,
            SharedFixtures.fixture("exposition/node_exporter/textfile/histogram/metrics.prom"));
    assertThat(samples)
        .allSatisfy(
            s -> {
              assertThat(s.family()).isEqualTo("prometheus_tsdb_compaction_chunk_range");
              assertThat(s.metadata().type()).isEqualTo(MetricType.HISTOGRAM);
            });
    assertThat(samples.get(7).labels().get("le")).isEqualTo("1.6384e+06");
    assertThat(samples.get(7).value()).isEqualTo(1.69185e6);
  }

  @Test
  void clientPythonTextSpecials() throws Exception {
    Path folder = SharedFixtures.fixture("exposition/client_python/text-format-0.0.4");
    List<ParsedSample> ts =
        parse(ExpositionFormat.TEXT_0_0_4, folder.resolve("TestGenerateText__test_timestamp.txt"));
    assertThat(ts.get(1).timestampMs()).hasValue(-123456);
    assertThat(ts.get(0).metadata().type()).isEqualTo(MetricType.UNKNOWN);

    ParsedSample escaped =
        parse(ExpositionFormat.TEXT_0_0_4, folder.resolve("TestGenerateText__test_escaping.txt"))
            .get(0);
    assertThat(escaped.labels().get("a")).isEqualTo("\\x\n\"");
    assertThat(escaped.metadata().help()).isEqualTo("A\ngaug\\e");

    ParsedSample utf8 =
        parse(
                ExpositionFormat.TEXT_0_0_4,
                folder.resolve("TestGenerateText__test_counter_utf8.txt"))
            .get(0);
    assertThat(utf8.metricName()).isEqualTo("utf8.cc_total");
    assertThat(utf8.metadata().type()).isEqualTo(MetricType.COUNTER);

    ParsedSample unicode =
        parse(ExpositionFormat.TEXT_0_0_4, folder.resolve("TestGenerateText__test_unicode.txt"))
            .get(0);
    assertThat(unicode.labels().get("l")).isEqualTo("䔀");
    assertThat(unicode.metadata().help()).isEqualTo("䔀");
  }

  @Test
  void clientPythonOpenMetricsSpecials() throws Exception {
    Path folder = SharedFixtures.fixture("exposition/client_python/openmetrics");
    List<ParsedSample> ts =
        parse(
            ExpositionFormat.OPENMETRICS_1_0_0,
            folder.resolve("TestGenerateText__test_timestamp.txt"));
    assertThat(ts)
        .extracting(s -> s.timestampMs().getAsLong())
        .containsExactly(123456L, -123456L, 123000L, 123456L, 123000L, 123000L);

    List<ParsedSample> counter =
        parse(
            ExpositionFormat.OPENMETRICS_1_0_0,
            folder.resolve("TestGenerateText__test_counter_exemplar.txt"));
    assertThat(counter.get(0).family()).isEqualTo("cc");
    assertThat(counter.get(0).metricName()).isEqualTo("cc_total");
    assertThat(counter.get(0).metadata().type()).isEqualTo(MetricType.COUNTER);
    Exemplar exemplar = counter.get(0).exemplar().orElseThrow();
    assertThat(exemplar.labels()).isEqualTo(Labels.of("a", "b"));
    assertThat(exemplar.value()).isEqualTo(1.0);
    assertThat(exemplar.timestampMs()).hasValue(123456);
    assertThat(counter.get(1).metricName()).isEqualTo("cc_created");
    assertThat(counter.get(1).family()).isEqualTo("cc");

    ParsedSample unit =
        parse(
                ExpositionFormat.OPENMETRICS_1_0_0,
                folder.resolve("TestGenerateText__test_counter_unit.txt"))
            .get(0);
    assertThat(unit.metadata().unit()).isEqualTo("seconds");

    ParsedSample info =
        parse(ExpositionFormat.OPENMETRICS_1_0_0, folder.resolve("TestGenerateText__test_info.txt"))
            .get(0);
    assertThat(info.family()).isEqualTo("ii");
    assertThat(info.metadata().type()).isEqualTo(MetricType.INFO);

    ParsedSample dotted =
        parse(
                ExpositionFormat.OPENMETRICS_1_0_0,
                folder.resolve("TestGenerateText__test_counter_utf8.txt"))
            .get(0);
    assertThat(dotted.metricName()).isEqualTo("cc.with.dots_total");
    assertThat(dotted.family()).isEqualTo("cc.with.dots");
  }
}
