package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A run as TensorBoard sees it: a directory that directly holds event files.
 *
 * @param name the directory relative to the logdir, {@code /}-separated; {@code "."} for the logdir
 *     itself
 * @param eventFiles the run's event files in name order, which is start-time order because writers
 *     zero-pad the timestamp in the name
 * @param hparamsParent for a sub-run that PyTorch's {@code add_hparams} wrote (a directory named by
 *     {@code time.time()} inside another run), the name of that run
 */
public record TensorBoardRun(
    String name, Path directory, List<Path> eventFiles, Optional<String> hparamsParent) {
  public TensorBoardRun {
    eventFiles = List.copyOf(eventFiles);
  }
}
