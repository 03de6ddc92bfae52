package io.flightdeck.tensorboard;

import java.io.Closeable;
import java.util.List;

/**
 * The hparams plugin's metadata of one logdir's runs ({@link RunHParams}), the latest write of each
 * part winning.
 *
 * <p>Contract: implementations are thread-safe; one thread appends while others read. An append is
 * visible to reads at once and durable after {@link #sync()}. After {@link #close()} no method may
 * be called.
 */
public interface HParamsStore extends Closeable {
  /**
   * Merges a point into the metadata of {@code run}, the run it describes.
   *
   * @return true if that changed the run's metadata (a re-read of the same event file changes
   *     nothing)
   * @throws StoreFileException if it cannot be written
   */
  boolean append(String run, HParamsPoint point);

  /**
   * Makes every append so far durable.
   *
   * @throws StoreFileException if the data cannot be forced to disk
   */
  void sync();

  /** Every run with hparams metadata, by run name. */
  List<RunHParams> runs();

  @Override
  void close();
}
