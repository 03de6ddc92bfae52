package io.flightdeck.promqltest;

import static org.assertj.core.api.Assertions.assertThat;

import io.flightdeck.testkit.SharedFixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every upstream script in ../shared/promql-tests parses, with the commands a line count finds. */
class SharedScriptsTest {

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

  /** Lines whose first word starts with {@code prefix}: no series in these files is so named. */
  private static int countFirstWords(List<String> lines, String prefix) {
    return (int)
        lines.stream()
            .map(l -> l.strip().toLowerCase(Locale.ROOT))
            .filter(l -> l.startsWith(prefix))
            .count();
  }
}
