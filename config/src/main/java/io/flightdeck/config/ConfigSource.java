package io.flightdeck.config;

import java.nio.file.Path;

/** The file being decoded: its name for messages and its directory for relative file names. */
record ConfigSource(String name, Path directory) {
  Path resolve(String file) {
    return directory.resolve(file).normalize();
  }
}
