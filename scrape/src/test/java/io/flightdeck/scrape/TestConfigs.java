package io.flightdeck.scrape;

import io.flightdeck.config.Config;
import io.flightdeck.config.ConfigLoader;
import io.flightdeck.config.ScrapeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Configurations written as YAML, loaded the way the server loads them. */
final class TestConfigs {
  private TestConfigs() {}

  static Config load(String yaml) {
    try {
      Path file = Files.createTempFile("flightdeck", ".yml");
      try {
        Files.writeString(file, yaml);
        return ConfigLoader.load(file);
      } finally {
        Files.delete(file);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The first job of a {@code scrape_configs} list written without the section header. */
  static ScrapeConfig job(String jobYaml) {
    return load("scrape_configs:\n" + jobYaml.indent(2)).scrapeConfigs().get(0);
  }
}
