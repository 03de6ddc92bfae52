package io.flightdeck.tensorboard;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads all event files of one run, in name order, sharing what the files say about each tag
 * (writers put a tag's plugin metadata only on its first value).
 *
 * <p>Steps are handed on as written, even when they go backwards. For the storing layer: current
 * TensorBoard (RustBoard, the default loader) treats a step lower than or equal to an earlier one
 * of the same tag as a restart from a checkpoint and drops every kept point of that tag at or after
 * the new step, so the recomputed points supersede the old ones; the legacy Python loader purges
 * only on a {@code SessionLog.START} event for {@code brain.Event:2} files, which PyTorch and TF2
 * never write, so it keeps both passes. Not thread-safe.
 */
public final class RunReader {
  private final EventDecoder decoder = new EventDecoder();
  private final Map<Path, EventFileReader> files = new TreeMap<>();

  public RunReader(TensorBoardRun run) {
    run.eventFiles().forEach(this::track);
  }

  /** Adds a file found later (a rotated or restarted writer); known files are left as they are. */
  public void track(Path file) {
    files.computeIfAbsent(file, f -> new EventFileReader(f, decoder));
  }

  /**
   * Polls every file in name order.
   *
   * @throws EventFileException if a file cannot be read; files before it have been read
   */
  public List<ReadProgress> poll(EventListener listener) {
    List<ReadProgress> progress = new ArrayList<>(files.size());
    for (EventFileReader reader : files.values()) {
      progress.add(reader.poll(listener));
    }
    return progress;
  }
}
