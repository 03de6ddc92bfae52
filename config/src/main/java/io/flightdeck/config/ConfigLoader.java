package io.flightdeck.config;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads and validates a {@code prometheus.yml}-compatible file. */
public final class ConfigLoader {
  private ConfigLoader() {}

  /**
   * Loads {@code file}; relative file names inside it are taken from its directory.
   *
   * @throws ConfigException when the file cannot be read, is not YAML, or fails a check
   */
  public static Config load(Path file) {
    String name = file.toString();
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ConfigException(name, 1, 1, "", "cannot read config file: " + e);
    }
    Path directory = file.toAbsolutePath().getParent();
    ConfigSource source = new ConfigSource(name, directory);
    return ConfigDecoder.decode(Node.root(source, YamlTreeReader.read(name, text)));
  }
}
