package io.flightdeck.tensorboard;

import java.util.List;
import java.util.Optional;

/**
 * Images (legacy {@code Summary.Image} and the {@code images} plugin) of one logdir, keyed by run,
 * tag, step, wall time and index within their event.
 *
 * <p>Reads follow TensorBoard's preemption rule per run and tag, as {@link TextStore} does: an
 * event with step {@code s} supersedes every earlier-stored event of that run and tag whose step is
 * {@code >= s}; the images of one event stay together.
 *
 * <p>Contract: implementations are thread-safe; one thread appends while others read. Returned
 * lists are immutable snapshots. An append is visible to reads at once and durable after {@link
 * #sync()}. After {@link #close()} no method may be called.
 */
public interface ImageStore extends SteppedSampleStore {
  /**
   * Stores an image unless one with the same run, tag, step, wall time and index is already stored
   * (a re-read of the same event file after a restart).
   *
   * @return true if the image was new
   * @throws StoreFileException if it cannot be written
   */
  boolean append(String run, ImagePoint point);

  /**
   * The current images of a run and tag with {@code minStep <= step <= maxStep}, by step and index;
   * descriptions only, the bytes stay on disk.
   */
  List<StoredImage> list(String run, String tag, long minStep, long maxStep);

  /** The bytes of the current image at this step and index, empty if there is none. */
  Optional<byte[]> read(String run, String tag, long step, int index);
}
