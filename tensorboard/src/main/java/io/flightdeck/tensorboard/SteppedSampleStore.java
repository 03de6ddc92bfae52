package io.flightdeck.tensorboard;

import java.io.Closeable;
import java.util.List;

/**
 * What every per-logdir store of stepped samples (text, images) offers besides its own appends and
 * reads: the runs and tags it holds, durability, and closing.
 */
public interface SteppedSampleStore extends Closeable {
  /**
   * Makes every append so far durable.
   *
   * @throws StoreFileException if the data cannot be forced to disk
   */
  void sync();

  /** Runs with at least one sample, sorted. */
  List<String> runs();

  /** Tags of a run, sorted; empty for an unknown run. */
  List<String> tags(String run);

  @Override
  void close();
}
