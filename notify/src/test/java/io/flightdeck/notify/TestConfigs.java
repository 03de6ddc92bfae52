package io.flightdeck.notify;

import io.flightdeck.config.ConfigLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Parses a {@code notifications} section the way the server does: through the config loader. */
final class TestConfigs {
  private TestConfigs() {}

  static NotificationsConfig notifications(Path dir, String yaml) {
    try {
      Path file = Files.createTempFile(dir, "flightdeck", ".yml");
      Files.writeString(file, yaml);
      return load(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static NotificationsConfig load(Path file) {
    return NotificationsConfig.parse(ConfigLoader.load(file).notifications());
  }
}
