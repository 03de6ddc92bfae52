package io.flightdeck.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Targets read from JSON or YAML files; the last path element may hold one {@code *}.
 *
 * @param files patterns, relative ones taken from the config file's directory
 */
public record FileSdConfig(List<Path> files, Duration refreshInterval) {
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofMinutes(5);

  public FileSdConfig {
    files = List.copyOf(files);
  }
}
