package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every upstream script in ../shared/promql-tests parses, with the commands a line count finds, and
 * runs against the engine: at least {@link #MIN_PASS_RATIO} of the evals that are not skipped pass,
 * and the failures, ours included, are exactly those {@code docs/promql-compatibility.md} lists.
 */
class SharedScriptsTest {
  static final double MIN_PASS_RATIO = 0.97;
  private static final Path DOC =
      Path.of("").toAbsolutePath().getParent().resolve("docs").resolve("promql-compatibility.md");

  private static List<ScriptResult> upstream;
  private static List<ScriptResult> own;

  @BeforeAll
  static void runAll() throws IOException, URISyntaxException {
    ScriptRunner runner = new ScriptRunner();
    upstream = run(runner, scripts().toList());
    try (Stream<Path> listing =
        Files.list(Path.of(SharedScriptsTest.class.getResource("/scripts").toURI()))) {
      own = run(runner, listing.filter(p -> p.toString().endsWith(".test")).sorted().toList());
    }
    if (Boolean.getBoolean(CompatibilityDoc.REGENERATE_PROPERTY)) {
      Files.createDirectories(DOC.getParent());
      Files.writeString(DOC, CompatibilityDoc.render(upstream, own));
    }
    StringWriter report = new StringWriter();
    ReportWriter.write(
        Stream.concat(upstream.stream(), own.stream()).toList(), new PrintWriter(report), false);
    System.out.print(report);
  }

  private static List<ScriptResult> run(ScriptRunner runner, List<Path> files) throws IOException {
    List<ScriptResult> results = new ArrayList<>();
    for (Path file : files) {
      results.add(runner.run(ScriptParser.parse(file)));
    }
    return results;
  }

  static Stream<Path> scripts() throws IOException {
    Path folder = SharedFixtures.root().resolve("promql-tests");
    List<Path> files;
    try (Stream<Path> listing = Files.list(folder)) {
      files = listing.filter(p -> p.toString().endsWith(".test")).sorted().toList();
    }
    assertThat(files).hasSizeGreaterThanOrEqualTo(14);
    return files.stream();
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void parsesWithTheCommandsAGrepFinds(Path file) throws IOException {
    List<String> lines = Files.readAllLines(file);
    Script script = ScriptParser.parse(file);

    assertThat(script.commands(LoadCommand.class)).hasSize(countFirstWords(lines, "load"));
    assertThat(script.commands(EvalCommand.class)).hasSize(countFirstWords(lines, "eval"));
    assertThat(script.commands(ClearCommand.class)).hasSize(countFirstWords(lines, "clear"));
  }

  @ParameterizedTest
  @MethodSource("scripts")
  void everyQueryIsValidPromQL(Path file) throws IOException {
    Script script = ScriptParser.parse(file);

    assertThat(script.commands(EvalCommand.class))
        .allSatisfy(
            eval ->
                assertThat(eval.parseError())
                    .as("line %d: %s", eval.line(), eval.query())
                    .isEmpty());
  }

  @Test
  void enoughOfTheUpstreamEvalsPass() {
    long passed = upstream.stream().mapToLong(r -> r.count(Outcome.Status.PASSED)).sum();
    long failed = upstream.stream().mapToLong(r -> r.count(Outcome.Status.FAILED)).sum();

    assertThat(passed + failed).as("evals run").isGreaterThan(500);
    assertThat((double) passed / (passed + failed))
        .as("pass ratio of %d passed, %d failed", passed, failed)
        .isGreaterThanOrEqualTo(MIN_PASS_RATIO);
  }

  @Test
  void everyFailureIsListedInTheCompatibilityDoc() throws IOException {
    Set<String> listed = CompatibilityDoc.listedFailures(Files.readString(DOC));
    Set<String> failing = new LinkedHashSet<>();
    for (ScriptResult r : Stream.concat(upstream.stream(), own.stream()).toList()) {
      r.outcomes(Outcome.Status.FAILED).forEach(o -> failing.add(CompatibilityDoc.key(r, o)));
    }

    assertThat(failing)
        .as(
            "failures vs. %s; regenerate it with -D%s=true",
            DOC, CompatibilityDoc.REGENERATE_PROPERTY)
        .containsExactlyInAnyOrderElementsOf(listed);
  }

  /**
   * The doc's summary tables pin every script's counts: a skip that grows (an eval newly skipped
   * hides a regression as surely as a failure would) or a pass that vanishes fails here.
   */
  @Test
  void everyScriptPassesFailsAndSkipsExactlyWhatTheCompatibilityDocCounts() throws IOException {
    java.util.Map<String, String> documented = new java.util.TreeMap<>();
    java.util.regex.Pattern row =
        java.util.regex.Pattern.compile(
            "^\\| ([\\w.-]+\\.test) \\| (\\d+) \\| (\\d+) \\| (\\d+) \\|$");
    for (String line : Files.readAllLines(DOC)) {
      java.util.regex.Matcher m = row.matcher(line);
      if (m.matches()) {
        documented.put(
            m.group(1),
            m.group(2) + " passed, " + m.group(3) + " failed, " + m.group(4) + " skipped");
      }
    }
    java.util.Map<String, String> actual = new java.util.TreeMap<>();
    for (ScriptResult r : Stream.concat(upstream.stream(), own.stream()).toList()) {
      actual.put(
          Path.of(r.file()).getFileName().toString(),
          r.count(Outcome.Status.PASSED)
              + " passed, "
              + r.count(Outcome.Status.FAILED)
              + " failed, "
              + r.count(Outcome.Status.SKIPPED)
              + " skipped");
    }
    assertThat(documented).as("scripts counted in %s", DOC).hasSizeGreaterThanOrEqualTo(14);
    assertThat(actual)
        .as(
            "counts vs. %s; regenerate it with -D%s=true",
            DOC, CompatibilityDoc.REGENERATE_PROPERTY)
        .containsExactlyInAnyOrderEntriesOf(documented);
  }

  /** Lines whose first word starts with {@code prefix}: no series in these files is so named. */
  private static int countFirstWords(List<String> lines, String prefix) {
    return (int)
        lines.stream()
            .map(l -> l.strip().toLowerCase(Locale.ROOT))
            .filter(l -> l.startsWith(prefix))
            .count();
  }
}
