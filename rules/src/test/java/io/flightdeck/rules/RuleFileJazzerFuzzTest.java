package io.flightdeck.rules;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of rule file parsing (Jazzer): YAML, PromQL expressions and Go templates.
 * Without {@code JAZZER_FUZZ} this replays the committed inputs in {@code
 * RuleFileJazzerFuzzTestInputs/parseRuleFile}; {@code ./run-tests --fuzz rule-file} explores from
 * them (docs/testing.md).
 */
class RuleFileJazzerFuzzTest {
  /** One file, rewritten for every input: rule files are read from paths, as the server does. */
  private static final Path FILE = newRuleFile();

  /**
   * Whatever the bytes, {@link RuleFileParser#parse(Path)} returns the file's groups or throws
   * {@link RuleFileException} with at least one error, each naming the file; nothing else escapes.
   */
  @FuzzTest(maxDuration = "30s")
  void parseRuleFile(byte[] bytes) throws IOException {
    Files.write(FILE, bytes);
    try {
      assertThat(RuleFileParser.parse(FILE).groups()).isNotNull();
    } catch (RuleFileException e) {
      assertThat(e.errors())
          .isNotEmpty()
          .allSatisfy(error -> assertThat(error).startsWith(FILE + ": "));
    }
  }

  private static Path newRuleFile() {
    try {
      Path directory = Files.createTempDirectory("rules-fuzz");
      directory.toFile().deleteOnExit();
      Path file = directory.resolve("rules.yml");
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
