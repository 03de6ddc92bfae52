package io.flightdeck.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Our addition: TensorBoard log directories to tail.
 *
 * @param logdirs relative names are taken from the config file's directory
 */
public record TensorBoardConfig(List<Path> logdirs, Duration pollInterval) {
  public static final Duration DEFAULT_POLL_INTERVAL = Duration.ofSeconds(1);
  public static final TensorBoardConfig NONE =
      new TensorBoardConfig(List.of(), DEFAULT_POLL_INTERVAL);

  public TensorBoardConfig {
    logdirs = List.copyOf(logdirs);
  }
}
