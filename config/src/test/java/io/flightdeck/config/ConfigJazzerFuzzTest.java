package io.flightdeck.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Coverage-guided fuzzing of configuration loading (Jazzer). Without {@code JAZZER_FUZZ} this
 * replays the committed inputs in {@code ConfigJazzerFuzzTestInputs/loadConfig}; {@code ./run-tests
 * --fuzz config} explores from them (docs/testing.md).
 */
class ConfigJazzerFuzzTest {
  /** One file, rewritten for every input: loading reads a path, as the server does. */
  private static final Path FILE = newConfigFile();

  /**
   * Whatever the bytes, {@link ConfigLoader#load} returns a configuration or throws {@link
   * ConfigException} naming the file and a position in it; nothing else escapes.
   */
  @FuzzTest(maxDuration = "30s")
  void loadConfig(byte[] bytes) throws IOException {
    Files.write(FILE, bytes);
    try {
      assertThat(ConfigLoader.load(FILE)).isNotNull();
    } catch (ConfigException e) {
      assertThat(e.getMessage()).startsWith(FILE + ":");
      assertThat(e.line()).isPositive();
      assertThat(e.column()).isPositive();
    }
  }

  private static Path newConfigFile() {
    try {
      Path directory = Files.createTempDirectory("config-fuzz");
      directory.toFile().deleteOnExit();
      Path file = directory.resolve("prometheus.yml");
      file.toFile().deleteOnExit();
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
